-- AlterTable
ALTER TABLE "Router" ADD COLUMN     "traceRedactNames" TEXT[] DEFAULT ARRAY[]::TEXT[];
