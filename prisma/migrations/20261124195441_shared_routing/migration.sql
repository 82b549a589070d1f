-- CreateTable
CREATE TABLE "ProviderState" (
    "providerId" TEXT NOT NULL,
    "active" INTEGER NOT NULL DEFAULT 0,
    "cooldownUntil" TIMESTAMPTZ(3),
    "windowStart" TIMESTAMPTZ(3),

    CONSTRAINT "ProviderState_pkey" PRIMARY KEY ("providerId")
);

-- CreateTable
CREATE TABLE "ProviderLease" (
    "id" TEXT NOT NULL,
    "providerId" TEXT NOT NULL,
    "proxyInstanceId" TEXT NOT NULL,
    "takenAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,
    "releasedAt" TIMESTAMPTZ(3),
    "failed" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "ProviderLease_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ProxyInstance" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "internalUrl" TEXT,
    "startedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "heartbeatAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ProxyInstance_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ProviderLease_providerId_takenAt_idx" ON "ProviderLease"("providerId", "takenAt");

-- CreateIndex
CREATE INDEX "ProviderLease_proxyInstanceId_releasedAt_idx" ON "ProviderLease"("proxyInstanceId", "releasedAt");

-- CreateIndex
CREATE INDEX "ProviderLease_releasedAt_expiresAt_idx" ON "ProviderLease"("releasedAt", "expiresAt");

-- CreateIndex
CREATE INDEX "ProxyInstance_name_idx" ON "ProxyInstance"("name");

-- CreateIndex
CREATE INDEX "ProxyInstance_heartbeatAt_idx" ON "ProxyInstance"("heartbeatAt");

-- AddForeignKey
ALTER TABLE "ProviderState" ADD CONSTRAINT "ProviderState_providerId_fkey" FOREIGN KEY ("providerId") REFERENCES "Provider"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ProviderLease" ADD CONSTRAINT "ProviderLease_providerId_fkey" FOREIGN KEY ("providerId") REFERENCES "Provider"("id") ON DELETE CASCADE ON UPDATE CASCADE;
