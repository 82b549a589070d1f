-- AlterTable
ALTER TABLE "Workspace" ADD COLUMN     "deletionRequestedAt" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "ConnectTicket" (
    "ticketHash" TEXT NOT NULL,
    "keyId" TEXT NOT NULL,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ConnectTicket_pkey" PRIMARY KEY ("ticketHash")
);

-- CreateIndex
CREATE INDEX "ConnectTicket_expiresAt_idx" ON "ConnectTicket"("expiresAt");

-- CreateIndex
CREATE INDEX "ConnectTicket_keyId_idx" ON "ConnectTicket"("keyId");

-- AddForeignKey
ALTER TABLE "ConnectTicket" ADD CONSTRAINT "ConnectTicket_keyId_fkey" FOREIGN KEY ("keyId") REFERENCES "RouterKey"("id") ON DELETE CASCADE ON UPDATE CASCADE;
