import { describeImport } from '../support/legacy/import-suite';

describeImport('one-api');
