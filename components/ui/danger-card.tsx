'use client';
// A danger zone: a card that names one destructive action (delete, leave), says what it does, and
// asks before doing it (ConfirmDialog, typed confirmation where `requireText` is given). The
// dialog's open state lives here; the action and what follows it are the caller's.
import { useState } from 'react';
import { Button } from './button';
import { Card, CardHeader } from './card';
import { ConfirmDialog, type ConfirmDialogProps } from './dialog';

export interface DangerCardProps {
  title: string;
  description: string;
  /** The button's label, which opens the confirmation. */
  action: string;
  confirm: Omit<ConfirmDialogProps, 'open' | 'onClose'>;
}

export function DangerCard({ title, description, action, confirm }: DangerCardProps) {
  const [open, setOpen] = useState(false);
  return (
    <Card tone="danger">
      <CardHeader
        title={title}
        description={description}
        actions={
          <Button variant="danger-secondary" size="sm" onClick={() => setOpen(true)}>
            {action}
          </Button>
        }
      />
      <ConfirmDialog open={open} onClose={() => setOpen(false)} {...confirm} />
    </Card>
  );
}
