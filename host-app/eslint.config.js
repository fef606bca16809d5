import { consoleLintConfig } from '../console-kit/eslint.base.js';

export default consoleLintConfig(import.meta.dirname);
