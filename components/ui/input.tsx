// Form controls. `TextField` is the usual label + input + hint + error; `Field` wraps any other
// control the same way. Errors come from the server's zod schema (lib/client/forms.ts).
import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';
import { cn } from './cn';

const control =
  'block w-full rounded-lg border bg-white px-3 text-sm text-zinc-900 shadow-xs transition-colors placeholder:text-zinc-400 focus:outline-none focus-visible:outline-none focus:ring-3 disabled:bg-zinc-50 disabled:text-zinc-500';
const controlState = (invalid: boolean) =>
  invalid ? 'border-red-400 focus:border-red-500 focus:ring-red-500/15' : 'border-zinc-300 focus:border-accent-500 focus:ring-accent-500/15';

export function Input({ className, invalid = false, ...props }: InputHTMLAttributes<HTMLInputElement> & { invalid?: boolean }) {
  return <input aria-invalid={invalid || undefined} className={cn(control, controlState(invalid), 'h-9', className)} {...props} />;
}

export function Textarea({ className, invalid = false, ...props }: TextareaHTMLAttributes<HTMLTextAreaElement> & { invalid?: boolean }) {
  return <textarea aria-invalid={invalid || undefined} className={cn(control, controlState(invalid), 'min-h-20 py-2', className)} {...props} />;
}

export function Select({ className, invalid = false, children, ...props }: SelectHTMLAttributes<HTMLSelectElement> & { invalid?: boolean }) {
  return (
    <select
      aria-invalid={invalid || undefined}
      className={cn(
        control,
        controlState(invalid),
        'h-9 appearance-none bg-[url("data:image/svg+xml,%3Csvg%20xmlns%3D%27http%3A//www.w3.org/2000/svg%27%20viewBox%3D%270%200%2024%2024%27%20fill%3D%27none%27%20stroke%3D%27%2371717a%27%20stroke-width%3D%272%27%3E%3Cpath%20d%3D%27m7%2010%205%205%205-5%27/%3E%3C/svg%3E")] bg-[length:16px] bg-[right_0.6rem_center] bg-no-repeat pr-8',
        className,
      )}
      {...props}
    >
      {children}
    </select>
  );
}

export interface FieldProps {
  label: ReactNode;
  htmlFor?: string;
  hint?: ReactNode;
  error?: string;
  className?: string;
  children: ReactNode;
}

export function Field({ label, htmlFor, hint, error, className, children }: FieldProps) {
  return (
    <div className={cn('space-y-1.5', className)}>
      <label htmlFor={htmlFor} className="block text-[13px] leading-5 font-medium text-zinc-700">
        {label}
      </label>
      {children}
      {error ? (
        <p className="text-[13px] text-red-600" role="alert">
          {error}
        </p>
      ) : (
        hint && <p className="text-[13px] text-zinc-500">{hint}</p>
      )}
    </div>
  );
}

export interface TextFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  fieldClassName?: string;
}

export function TextField({ label, hint, error, fieldClassName, id, ...props }: TextFieldProps) {
  const generated = useId();
  const inputId = id ?? generated;
  return (
    <Field label={label} htmlFor={inputId} hint={hint} error={error} className={fieldClassName}>
      <Input id={inputId} invalid={Boolean(error)} {...props} />
    </Field>
  );
}
