-- DropIndex
DROP INDEX "WebhookDelivery_status_nextAttemptAt_idx";

-- AlterTable
ALTER TABLE "Webhook" DROP COLUMN "url",
ADD COLUMN     "urlDisplay" TEXT NOT NULL,
ADD COLUMN     "urlEncrypted" TEXT NOT NULL;

-- AlterTable
ALTER TABLE "WebhookDelivery" ADD COLUMN     "claimToken" TEXT,
ADD COLUMN     "claimedBy" TEXT,
ADD COLUMN     "queue" TEXT NOT NULL DEFAULT 'cloud',
ALTER COLUMN "payload" SET DATA TYPE JSON;

-- AlterTable
ALTER TABLE "WebhookAttempt" ADD COLUMN     "attempt" INTEGER NOT NULL,
ADD COLUMN     "webhookId" TEXT NOT NULL;

-- CreateIndex
CREATE INDEX "WebhookDelivery_queue_status_nextAttemptAt_idx" ON "WebhookDelivery"("queue", "status", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "WebhookDelivery_status_createdAt_idx" ON "WebhookDelivery"("status", "createdAt");

-- CreateIndex
CREATE INDEX "WebhookAttempt_webhookId_attemptedAt_idx" ON "WebhookAttempt"("webhookId", "attemptedAt" DESC);

-- AddForeignKey
ALTER TABLE "WebhookAttempt" ADD CONSTRAINT "WebhookAttempt_webhookId_fkey" FOREIGN KEY ("webhookId") REFERENCES "Webhook"("id") ON DELETE CASCADE ON UPDATE CASCADE;
