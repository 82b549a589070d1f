-- AlterTable
ALTER TABLE "User" ADD COLUMN     "emailProvenAt" TIMESTAMPTZ(3),
ADD COLUMN     "operatorSince" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "EmailToken" ADD COLUMN     "mailedAt" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "MailOutbox" ADD COLUMN     "senderUserId" TEXT;

-- CreateTable
CREATE TABLE "OperatorClaim" (
    "id" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "usedAt" TIMESTAMPTZ(3),
    "usedByUserId" TEXT,
    "revokedAt" TIMESTAMPTZ(3),

    CONSTRAINT "OperatorClaim_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OperatorAction" (
    "id" TEXT NOT NULL,
    "actorUserId" TEXT,
    "actorEmail" TEXT,
    "action" TEXT NOT NULL,
    "workspaceId" TEXT,
    "targetLabel" TEXT,
    "detail" JSONB NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OperatorAction_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "OperatorClaim_tokenHash_key" ON "OperatorClaim"("tokenHash");

-- CreateIndex
CREATE INDEX "OperatorAction_createdAt_idx" ON "OperatorAction"("createdAt" DESC);

-- CreateIndex
CREATE INDEX "MailOutbox_to_idx" ON "MailOutbox"("to");
