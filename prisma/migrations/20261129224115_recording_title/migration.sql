-- AlterTable
ALTER TABLE "Recording" ADD COLUMN     "pageCount" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "title" TEXT;
