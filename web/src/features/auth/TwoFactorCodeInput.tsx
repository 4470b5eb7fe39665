import { Input, type InputRef } from 'antd';
import { useRef, type ClipboardEvent, type KeyboardEvent } from 'react';

// Six single-digit boxes (docs/spec/part-1.txt sections 2 and 5): digits only, auto-advance, backspace and
// arrow-key navigation, paste of up to 6 digits (non-digits stripped, cut to 6).
export const CODE_LENGTH = 6;

export function emptyCode(): string[] {
  return Array.from({ length: CODE_LENGTH }, () => '');
}

export function digitsFromPaste(text: string): string[] {
  return text.replace(/\D/g, '').slice(0, CODE_LENGTH).split('');
}

export function isCompleteCode(digits: readonly string[]): boolean {
  return digits.length === CODE_LENGTH && digits.every((d) => /^\d$/.test(d));
}

interface Props {
  value: string[];
  onChange(next: string[]): void;
  disabled?: boolean;
  autoFocus?: boolean;
}

export function TwoFactorCodeInput({ value, onChange, disabled, autoFocus }: Props) {
  const boxes = useRef<(InputRef | null)[]>([]);
  const focusBox = (index: number) => {
    const clamped = Math.max(0, Math.min(CODE_LENGTH - 1, index));
    boxes.current[clamped]?.focus();
  };

  const setDigit = (index: number, raw: string) => {
    const digit = raw.replace(/\D/g, '').slice(-1);
    const next = [...value];
    next[index] = digit;
    onChange(next);
    if (digit !== '' && index < CODE_LENGTH - 1) focusBox(index + 1);
  };

  const onKeyDown = (index: number, event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Backspace' && value[index] === '' && index > 0) {
      event.preventDefault();
      const next = [...value];
      next[index - 1] = '';
      onChange(next);
      focusBox(index - 1);
    } else if (event.key === 'ArrowLeft') {
      event.preventDefault();
      focusBox(index - 1);
    } else if (event.key === 'ArrowRight') {
      event.preventDefault();
      focusBox(index + 1);
    }
  };

  const onPaste = (event: ClipboardEvent<HTMLInputElement>) => {
    event.preventDefault();
    const pasted = digitsFromPaste(event.clipboardData.getData('text'));
    if (pasted.length === 0) return;
    const next = emptyCode().map((_, i) => pasted[i] ?? '');
    onChange(next);
    focusBox(Math.min(pasted.length, CODE_LENGTH - 1));
  };

  return (
    <div className="code-boxes" role="group" aria-label="2FA code">
      {value.map((digit, index) => (
        <Input
          key={index}
          ref={(el) => {
            boxes.current[index] = el;
          }}
          value={digit}
          inputMode="numeric"
          autoComplete={index === 0 ? 'one-time-code' : 'off'}
          maxLength={2}
          aria-label={`Digit ${index + 1}`}
          className="code-box"
          disabled={disabled}
          autoFocus={autoFocus && index === 0}
          onChange={(e) => setDigit(index, e.target.value)}
          onKeyDown={(e) => onKeyDown(index, e)}
          onPaste={onPaste}
          onFocus={(e) => e.target.select()}
        />
      ))}
    </div>
  );
}
