// Files a client names by path cannot reach a pool browser: it runs in a sandbox that sees none of
// the host's files, let alone the client's machine (sandbox.ts). Chromium would set a 0-byte file
// and the page would fail to read it (ERR_FILE_NOT_FOUND), so the command is refused with an error
// that says what works instead (docs/connect.md, "Uploading files").
import type { CommandScreen } from '../relay/command-screen';

export const UPLOAD_BY_PATH_REFUSAL =
  "DOM.setFileInputFiles with file paths cannot work on the local pool: its browsers run in a sandbox that cannot see your machine's files. " +
  "Send the file's contents instead: Playwright's setInputFiles does this by itself; with puppeteer or raw CDP, set the input's files from a DataTransfer in the page (docs/connect.md, \"Uploading files\").";

export const refuseUploadsByPath: CommandScreen = {
  methods: ['DOM.setFileInputFiles'],
  refuse: (command) => {
    const files = command.params?.files;
    return Array.isArray(files) && files.length > 0 ? UPLOAD_BY_PATH_REFUSAL : null;
  },
};
