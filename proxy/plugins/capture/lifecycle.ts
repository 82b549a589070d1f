// One capture's row and files through its session (recordings and traces alike): the row is
// written once the session's row is (it refers to it); at the session's end the capture's files
// are closed with their summary, and the row is finished from it. A capture whose row was deleted
// while it ran (the API's DELETE) deletes what it wrote since. Failures are logged, never thrown:
// a capture never takes its session down.
import type { BlobStore } from '../../../lib/blobs';
import type { CaptureKind } from '../../../lib/captures/kinds';
import { log } from '../../../lib/log';

export interface CaptureStart {
  kind: CaptureKind;
  id: string;
  sessionId: string;
  store: BlobStore;
  /** Resolves once the session's row is written. */
  sessionInserted: Promise<unknown>;
  /** Writes the capture's row. */
  createRow: () => Promise<void>;
}

export interface CaptureEnd<Summary> {
  /** Closes the files and gives their summary. */
  close: () => Promise<Summary>;
  /** Finishes the row from the summary; false when the row is gone (deleted while it ran). */
  finishRow: (summary: Summary) => Promise<boolean>;
  /** What follows a finished row (the video's encode, the downloads the trace saw). */
  afterFinish?: (summary: Summary) => Promise<void>;
}

export class CaptureLifecycle {
  /** Whether the row was written (false: it could not be, and the end writes files only). */
  readonly created: Promise<boolean>;
  /** Settles when the files and the row are final. */
  done: Promise<void> = Promise.resolve();

  constructor(private readonly start: CaptureStart) {
    this.created = start.sessionInserted.then(start.createRow).then(
      () => true,
      (error: Error) => {
        log.error({ sessionId: start.sessionId, [`${start.kind.noun}Id`]: start.id, err: error.message }, `could not record the ${start.kind.noun} start`);
        return false;
      },
    );
  }

  end<Summary>(steps: CaptureEnd<Summary>): Promise<void> {
    const { kind, id, sessionId, store } = this.start;
    this.done = (async () => {
      const summary = await steps.close();
      if (!(await this.created)) return;
      if (await steps.finishRow(summary)) await steps.afterFinish?.(summary);
      else await store.deleteFolder(kind.folder(id));
    })().catch((error: Error) => log.error({ sessionId, [`${kind.noun}Id`]: id, err: error.message }, `could not finish the ${kind.noun}`));
    return this.done;
  }
}
