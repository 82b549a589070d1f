-- AlterTable
ALTER TABLE "SessionDownload" ADD COLUMN     "sourceUrl" TEXT,
ALTER COLUMN "blobKey" DROP NOT NULL;
