-- CreateTable
CREATE TABLE "SessionDownload" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "sessionLogId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "sizeBytes" BIGINT NOT NULL,
    "blobKey" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SessionDownload_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "SessionDownload_sessionLogId_name_idx" ON "SessionDownload"("sessionLogId", "name");

-- CreateIndex
CREATE INDEX "SessionDownload_workspaceId_createdAt_idx" ON "SessionDownload"("workspaceId", "createdAt");

-- AddForeignKey
ALTER TABLE "SessionDownload" ADD CONSTRAINT "SessionDownload_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SessionDownload" ADD CONSTRAINT "SessionDownload_sessionLogId_fkey" FOREIGN KEY ("sessionLogId") REFERENCES "SessionLog"("id") ON DELETE CASCADE ON UPDATE CASCADE;
