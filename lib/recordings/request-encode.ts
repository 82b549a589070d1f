// The one place the API asks for a recording's video: the job queue (lib/jobs) runs the encoder,
// one job per recording however often it is asked.
// TEMPORARY STUB until lib/jobs lands: import { enqueueEncode } from '../jobs' instead.
export const requestEncode = async (recordingId: string): Promise<void> => {
  void recordingId;
};
