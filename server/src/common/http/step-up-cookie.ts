import type { FastifyReply, FastifyRequest } from 'fastify';

export const STEP_UP_COOKIE = 'step_up';
/** How long a password or second-factor check covers sensitive actions. */
export const STEP_UP_SECONDS = 600;

/** A step-up proof: the session it was made in, its user, and when (Unix seconds). */
export interface StepUpProof {
  sid: string;
  uid: number;
  at: number;
}

/** The signed proof cookie `sid.uid.time` of this request, or null (none, forged, another format). */
export function readStepUpCookie(req: FastifyRequest): StepUpProof | null {
  const raw = req.cookies?.[STEP_UP_COOKIE];
  const unsigned = raw ? req.unsignCookie(raw) : null;
  const m =
    unsigned?.valid && unsigned.value
      ? /^([A-Za-z0-9]{24})\.(\d{1,10})\.(\d{1,12})$/.exec(unsigned.value)
      : null;
  return m ? { sid: m[1], uid: Number(m[2]), at: Number(m[3]) } : null;
}

/** Writes a proof bound to the session `sid` (signed, HttpOnly, living as long as it counts). */
export function setStepUpCookie(req: FastifyRequest, reply: FastifyReply, proof: StepUpProof): void {
  reply.setCookie(STEP_UP_COOKIE, `${proof.sid}.${proof.uid}.${proof.at}`, {
    signed: true,
    httpOnly: true,
    sameSite: 'lax',
    secure: req.protocol === 'https',
    path: '/',
    maxAge: Math.max(1, proof.at + STEP_UP_SECONDS - Math.floor(Date.now() / 1000)),
  });
}
