-- CreateTable
CREATE TABLE "DataApiUsage" (
    "workspaceId" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "routerId" TEXT NOT NULL,
    "calls" INTEGER NOT NULL DEFAULT 0,
    "failed" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "DataApiUsage_pkey" PRIMARY KEY ("workspaceId","day","routerId")
);

-- AddForeignKey
ALTER TABLE "DataApiUsage" ADD CONSTRAINT "DataApiUsage_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;
