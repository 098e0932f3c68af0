// Judge calibration (docs/method.md: Calibrating a judge): what the rest of whetstone may use. The gate reads a judge's
// latest calibration with readCalibration(stateDir, specHash), where specHash is LoadedJudgeSpec.hash.
export { runCalibrate, type CalibrateOptions, type CalibrateEnv, type CalibrateOutcome } from './run.js';
export { readLabelFile, parseLabelText, parseLabel, type Label, type LabelPair, type LabelFormat } from './labels.js';
export {
  tally,
  calibrationOf,
  byCategory,
  smallSampleWarnings,
  MIN_RUNS_PER_CLASS,
  type Tally,
  type Fraction,
  type Calibration,
  type BiasReading,
  type CategoryCalibration,
} from './metrics.js';
export { checkThresholds, thresholdSources, type ThresholdCheck, type ThresholdSource, type ThresholdName } from './thresholds.js';
export { buildReport, renderReport, biasLine, type CalibrationReport, type JudgeInfo } from './report.js';
export { ratio4 } from './report.js';
export { readAnswerKey, runAnswerKey, pairsJsonl, type AnswerKeyItem, type JudgedPair } from './answer-key.js';
export { readCalibration, writeCalibration, calibrationFile, calibrationRecordSchema, CALIBRATION_SCHEMA, type CalibrationRecord } from '../judges/calibration-store.js';
