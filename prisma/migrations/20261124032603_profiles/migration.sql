-- AlterTable
ALTER TABLE "Profile" ADD COLUMN     "lockExpiresAt" TIMESTAMPTZ(3),
ADD COLUMN     "lockSessionId" TEXT;

-- AlterTable
ALTER TABLE "ProfileVersion" ADD COLUMN     "capturedOrigins" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "cookieCount" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "source" TEXT NOT NULL DEFAULT 'session';
