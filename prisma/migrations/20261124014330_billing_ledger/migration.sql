-- AlterTable
ALTER TABLE "SessionLog" ADD COLUMN     "monthOrdinal" INTEGER;

-- AlterTable
ALTER TABLE "Transaction" ADD COLUMN     "chargeCents" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "checkoutUrl" TEXT,
ADD COLUMN     "createdById" TEXT,
ADD COLUMN     "paymentIntentId" TEXT,
ADD COLUMN     "refundedCents" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "topupId" TEXT,
ALTER COLUMN "providerTxnId" DROP NOT NULL;

-- CreateTable
CREATE TABLE "WalletEntry" (
    "id" BIGSERIAL NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "kind" "LedgerKind" NOT NULL,
    "amountMillicents" BIGINT NOT NULL,
    "cause" TEXT NOT NULL,
    "sessionLogId" TEXT,
    "transactionId" TEXT,
    "note" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WalletEntry_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ProcessorEvent" (
    "id" TEXT NOT NULL,
    "processor" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "receivedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ProcessorEvent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "WalletEntry_cause_key" ON "WalletEntry"("cause");

-- CreateIndex
CREATE INDEX "WalletEntry_workspaceId_createdAt_idx" ON "WalletEntry"("workspaceId", "createdAt" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "Transaction_paymentIntentId_key" ON "Transaction"("paymentIntentId");

-- CreateIndex
CREATE INDEX "Transaction_topupId_idx" ON "Transaction"("topupId");

-- AddForeignKey
ALTER TABLE "WalletEntry" ADD CONSTRAINT "WalletEntry_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Wallet"("workspaceId") ON DELETE CASCADE ON UPDATE CASCADE;

-- Every workspace has had its wallet since it was created, and entries now need it.
INSERT INTO "Wallet" ("workspaceId", "balanceMillicents", "updatedAt") SELECT "id", 0, now() FROM "Workspace" ON CONFLICT ("workspaceId") DO NOTHING;

-- The ledger is append-only: an entry is never changed (a correction is a new entry). Rows go
-- only with their wallet (the cascade above). The function body is an E'' string with its
-- semicolon escaped (\073) because migrations are applied statement by statement, split at each semicolon.
CREATE FUNCTION "wallet_entry_append_only"() RETURNS trigger LANGUAGE plpgsql AS E'BEGIN RAISE EXCEPTION ''WalletEntry rows are append-only''\073 END';
CREATE TRIGGER "WalletEntry_append_only" BEFORE UPDATE ON "WalletEntry" FOR EACH ROW EXECUTE FUNCTION "wallet_entry_append_only"();
