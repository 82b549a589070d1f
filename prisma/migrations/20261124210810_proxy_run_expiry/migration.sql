-- DropIndex
DROP INDEX "ProxyInstance_heartbeatAt_idx";

-- AlterTable
ALTER TABLE "ProxyInstance" ADD COLUMN     "expiresAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- CreateIndex
CREATE INDEX "ProxyInstance_expiresAt_idx" ON "ProxyInstance"("expiresAt");
