/**
 * A recipient field: chips for the addresses, a text box that turns what is typed into
 * chips (comma, semicolon, Enter, Tab, leaving the field), and suggestions from
 * `suggest(prefix)` in an ARIA combobox (arrow keys, Enter/Tab to pick, Escape to close).
 */
import { useEffect, useId, useRef, useState, type ClipboardEvent, type KeyboardEvent } from 'react';
import type { SuggestedAddress as Address } from '../../shared/worker-mail-api';
import { addressKey } from '../../shared/address-equivalence';
import { Avatar } from '../kit/Avatar';
import { useT } from '../kit/i18n';
import { addChips, chipFromAddress, chipLabel, expandChip, parseRecipients, type RecipientChip } from './recipients';

export interface RecipientFieldProps {
  /** Visible label: "To", "Cc" or "Bcc". */
  readonly label: string;
  readonly chips: readonly RecipientChip[];
  readonly onChange: (chips: RecipientChip[]) => void;
  /** Text typed but not yet a chip (kept by the composer so Send can include it). */
  readonly text: string;
  readonly onTextChange: (text: string) => void;
  readonly suggest: (prefix: string) => Promise<readonly Address[]>;
  /** Removes a suggestion for good (Shift+Delete on the active one, or its × button). */
  readonly forgetSuggestion?: (email: string) => void;
  readonly autoFocus?: boolean;
  /** Quiet time before asking for suggestions. */
  readonly suggestDelayMs?: number;
  readonly inputRef?: (input: HTMLInputElement | null) => void;
}

const MAX_SUGGESTIONS = 8;

export function RecipientField(props: RecipientFieldProps) {
  const t = useT();
  const { chips, onChange, text, onTextChange, suggest, label } = props;
  const id = useId();
  const listboxId = `${id}-listbox`;
  const errorId = `${id}-error`;
  const inputRef = useRef<HTMLInputElement | null>(null);
  const [options, setOptions] = useState<readonly Address[]>([]);
  const [active, setActive] = useState(-1);
  const [open, setOpen] = useState(false);
  const request = useRef(0);
  const delay = props.suggestDelayMs ?? 120;

  // Suggestions for the text being typed; a late answer to an older prefix is ignored.
  useEffect(() => {
    const prefix = text.trim();
    const ticket = ++request.current;
    if (prefix === '' || /[,;]/.test(prefix)) {
      setOptions([]);
      setOpen(false);
      return;
    }
    const timer = setTimeout(() => {
      suggest(prefix).then(
        (found) => {
          if (ticket !== request.current) return;
          const chosen = new Set(chips.map((chip) => addressKey(chip.email)));
          const fresh = found.filter((address) => !chosen.has(addressKey(address.email))).slice(0, MAX_SUGGESTIONS);
          setOptions(fresh);
          setActive(fresh.length > 0 ? 0 : -1);
          setOpen(fresh.length > 0);
        },
        () => ticket === request.current && setOpen(false),
      );
    }, delay);
    return () => clearTimeout(timer);
    // Chips only filter the answer: a change of chips alone needs no new request.
  }, [text, suggest, delay]);

  const commitText = (raw: string = text) => {
    const added = parseRecipients(raw);
    onTextChange('');
    setOpen(false);
    if (added.length > 0) onChange(addChips(chips, added));
  };

  const pick = (address: Address) => {
    onChange(addChips(chips, [chipFromAddress(address)]));
    onTextChange('');
    setOpen(false);
    setOptions([]);
    inputRef.current?.focus();
  };

  const remove = (key: string) => {
    onChange(chips.filter((chip) => chip.key !== key));
    inputRef.current?.focus();
  };

  /** Puts a chip back into the text box to be corrected; a list's chip opens into its members' chips. */
  const edit = (chip: RecipientChip) => {
    if (chip.members) {
      const at = chips.findIndex((other) => other.key === chip.key);
      const rest = chips.filter((other) => other.key !== chip.key);
      onChange(addChips(rest.slice(0, at), [...expandChip(chip), ...rest.slice(at)]));
      inputRef.current?.focus();
      return;
    }
    if (text.trim() !== '') commitText();
    onChange(chips.filter((other) => other.key !== chip.key));
    onTextChange(chip.name && chip.valid ? `${chip.name} <${chip.email}>` : chip.email);
    inputRef.current?.focus();
  };

  /** Out of the list now, and out of the suggestions for good (the engine remembers). */
  const forget = (address: Address) => {
    props.forgetSuggestion?.(address.email);
    setOptions((list) => list.filter((option) => option.email !== address.email));
    setActive((index) => Math.max(0, Math.min(index, options.length - 2)));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const listOpen = open && options.length > 0;
    if (event.key === 'Delete' && event.shiftKey && listOpen && active >= 0 && options[active] && props.forgetSuggestion) {
      event.preventDefault();
      forget(options[active] as Address);
      return;
    }
    switch (event.key) {
      case 'ArrowDown':
        if (listOpen) {
          event.preventDefault();
          setActive((index) => (index + 1) % options.length);
        }
        return;
      case 'ArrowUp':
        if (listOpen) {
          event.preventDefault();
          setActive((index) => (index <= 0 ? options.length - 1 : index - 1));
        }
        return;
      case 'Enter':
        if (event.ctrlKey || event.metaKey) return; // Ctrl+Enter sends; the composer handles it
        if (listOpen && active >= 0 && options[active]) {
          event.preventDefault();
          pick(options[active] as Address);
        } else if (text.trim() !== '') {
          event.preventDefault();
          commitText();
        }
        return;
      case 'Tab':
        if (event.shiftKey) return;
        if (listOpen && active >= 0 && options[active]) {
          event.preventDefault();
          pick(options[active] as Address);
        } else if (text.trim() !== '') commitText(); // and let focus move on
        return;
      case 'Escape':
        if (listOpen) {
          event.preventDefault();
          event.stopPropagation(); // close the list, not the composer
          setOpen(false);
        }
        return;
      case ',':
      case ';':
        event.preventDefault();
        if (text.trim() !== '') commitText();
        return;
      case 'Backspace':
        if (text === '' && chips.length > 0) {
          event.preventDefault();
          onChange(chips.slice(0, -1));
        }
        return;
    }
  };

  const onPaste = (event: ClipboardEvent<HTMLInputElement>) => {
    const pasted = event.clipboardData.getData('text/plain');
    if (/[,;\n]/.test(pasted) || (text === '' && /@/.test(pasted) && parseRecipients(pasted).length > 1)) {
      event.preventDefault();
      commitText(text + pasted);
    }
  };

  const invalid = chips.filter((chip) => !chip.valid);
  const activeId = open && active >= 0 ? `${id}-option-${active}` : undefined;

  return (
    <div className={`tern-recipient-field${invalid.length > 0 ? ' has-invalid' : ''}`} onClick={(event) => event.target === event.currentTarget && inputRef.current?.focus()}>
      <label className="tern-field-label" htmlFor={`${id}-input`}>
        {label}
      </label>
      <ul className="tern-chips" aria-label={t('composer.recipientsOf', { field: label })}>
        {chips.map((chip) => (
          <li key={chip.key} className={`tern-chip${chip.valid ? '' : ' is-invalid'}`} title={chip.valid ? chip.email : `${chip.email}: ${t('errors.InvalidMail')}`}>
            <button
              type="button"
              className="tern-chip-label"
              aria-label={chip.members ? t('composer.listChip', { name: chip.name, count: chip.members.length }) : chip.valid ? t('composer.editChip', { name: chipLabel(chip), email: chip.email }) : t('composer.editInvalidChip', { email: chip.email })}
              title={chip.members ? chip.members.map((member) => member.email).join(', ') : undefined}
              onClick={() => edit(chip)}
            >
              {chip.members ? `${chip.name} (${chip.members.length})` : chipLabel(chip)}
            </button>
            <button type="button" className="tern-chip-remove" aria-label={t('composer.removeNamed', { name: chip.email })} onClick={() => remove(chip.key)}>
              ×
            </button>
          </li>
        ))}
        <li className="tern-chip-input-item">
          <input
            ref={(element) => {
              inputRef.current = element;
              props.inputRef?.(element);
            }}
            id={`${id}-input`}
            className="tern-chip-input"
            type="text"
            role="combobox"
            aria-autocomplete="list"
            aria-expanded={open}
            aria-controls={listboxId}
            aria-activedescendant={activeId}
            aria-invalid={invalid.length > 0 || undefined}
            aria-describedby={invalid.length > 0 ? errorId : undefined}
            autoComplete="off"
            spellCheck={false}
            autoFocus={props.autoFocus}
            value={text}
            onChange={(event) => onTextChange(event.target.value)}
            onKeyDown={onKeyDown}
            onPaste={onPaste}
            onBlur={() => {
              setOpen(false);
              if (text.trim() !== '') commitText();
            }}
          />
        </li>
      </ul>
      <ul id={listboxId} role="listbox" aria-label={t('composer.suggestionsFor', { field: label })} className="tern-suggestions" hidden={!open}>
        {open &&
          options.map((address, index) => (
            <li
              key={address.email}
              id={`${id}-option-${index}`}
              role="option"
              aria-selected={index === active}
              className={`tern-suggestion${index === active ? ' is-active' : ''}`}
              // mousedown, not click: the text box must not lose focus (and commit) first
              onMouseDown={(event) => {
                event.preventDefault();
                pick(address);
              }}
              onMouseMove={() => setActive(index)}
            >
              <Avatar name={address.name} email={address.email} size={28} />
              <span className="tern-suggestion-text">
                <span className="tern-suggestion-name">{address.name || address.email}</span>
                {address.members ? (
                  <span className="tern-suggestion-email">{t('composer.listSuggestion', { count: address.members.length })}</span>
                ) : (
                  address.name && <span className="tern-suggestion-email">{address.email}</span>
                )}
              </span>
              {props.forgetSuggestion && !address.members && (
                <button
                  type="button"
                  tabIndex={-1}
                  className="tern-suggestion-remove"
                  aria-label={t('composer.removeSuggestion', { email: address.email })}
                  title={t('composer.removeSuggestion', { email: address.email })}
                  onMouseDown={(event) => {
                    event.preventDefault();
                    event.stopPropagation();
                    forget(address);
                  }}
                >
                  ×
                </button>
              )}
            </li>
          ))}
      </ul>
      {invalid.length > 0 && (
        <p id={errorId} className="tern-field-error" role="alert">
          {t('errors.InvalidMail')} {invalid.map((chip) => `“${chip.email}”`).join(', ')}
        </p>
      )}
    </div>
  );
}
