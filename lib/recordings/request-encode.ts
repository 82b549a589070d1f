// The one place the API asks for a recording's video: the job queue (lib/jobs) runs the encoder,
// one job per recording however often it is asked.
import { enqueueEncode } from '../jobs';

export async function requestEncode(recordingId: string): Promise<void> {
  await enqueueEncode(recordingId);
}
