import type { Metadata } from 'next';
import './globals.css';

export const metadata: Metadata = { title: 'Browser Router', description: 'Route browser automation to any provider' };

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen bg-gray-50 text-gray-900 antialiased">{children}</body>
    </html>
  );
}
