-- AlterTable
ALTER TABLE "Trace" ADD COLUMN     "truncated" TEXT;
