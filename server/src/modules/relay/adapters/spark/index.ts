/**
 * iFlytek Spark (channel type 18). Spark speaks a websocket protocol, so there is no ProviderAdapter
 * here: relay.service owns the socket and uses these pure helpers.
 *   1. parseSparkKey(channel.key) → {appId, apiSecret, apiKey} ("APPID|APISecret|APIKey");
 *      version = sparkVersion(channel.other) (v2.1 when empty), domain = sparkDomain(version).
 *   2. Connect to sparkAuthUrl(channel.baseUrl, apiKey, apiSecret, version, Date.now()).
 *   3. Send JSON.stringify(sparkRequestFrame(openaiBody, appId, domain)).
 *   4. Feed every received frame (parsed JSON) to sparkFrameToChunks(frame, {id, created, model}) and
 *      close after the frame for which sparkFrameIsLast(frame) holds. The chunks are OpenAI
 *      chat.completion.chunk objects (stream them, or fold them into one completion).
 */
export { DEFAULT_SPARK_URL, parseSparkKey, sparkAuthUrl, type SparkKey } from './auth';
export { sparkError } from './errors';
export { sparkFrameIsLast, sparkFrameToChunks, sparkRequestFrame, type SparkChunkContext } from './frames';
export { DEFAULT_SPARK_VERSION, sparkDomain, sparkPath, sparkVersion } from './versions';
