export interface FilterOption {
  value: string;
  label: string;
}

interface Props {
  id: string;
  label: string;
  value: string;
  /** A plain string is both the option's value and its label. */
  options: readonly (string | FilterOption)[];
  onChange(value: string): void;
}

/** A labelled native select above a list, as the audit and staff pages filter with (light, and fine on phones). */
export function FilterSelect({ id, label, value, options, onChange }: Props) {
  return (
    <div className="filter-field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <select id={id} className="native-select" value={value} onChange={(e) => onChange(e.target.value)}>
        {options.map((o) => {
          const option = typeof o === 'string' ? { value: o, label: o } : o;
          return (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          );
        })}
      </select>
    </div>
  );
}
