import { describeImport } from '../support/legacy/import-suite';

describeImport('new-api');
