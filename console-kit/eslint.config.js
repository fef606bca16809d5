import { consoleLintConfig } from './eslint.base.js';

export default consoleLintConfig(import.meta.dirname);
