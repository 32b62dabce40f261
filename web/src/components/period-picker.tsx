import { SelectField } from '@aws-amplify/ui-react';
import { currentPeriod, monthNames, type Period } from '@domain/payments';

export interface PeriodPickerProps {
  period: Period;
  onChange: (period: Period) => void;
  monthLabel: string;
  yearLabel: string;
}

/** A month and a year to bill (last year, this year, next year), as two selects. */
export function PeriodPicker({ period, onChange, monthLabel, yearLabel }: PeriodPickerProps) {
  const year = currentPeriod(new Date()).anno;
  return (
    <>
      <SelectField
        label={monthLabel}
        value={String(period.mese)}
        onChange={(e) => onChange({ ...period, mese: Number(e.target.value) })}
      >
        {monthNames.map((name, i) => (
          <option key={name} value={i + 1}>
            {name}
          </option>
        ))}
      </SelectField>
      <SelectField
        label={yearLabel}
        value={String(period.anno)}
        onChange={(e) => onChange({ ...period, anno: Number(e.target.value) })}
      >
        {[...new Set([year - 1, year, year + 1, period.anno])].sort().map((y) => (
          <option key={y} value={y}>
            {y}
          </option>
        ))}
      </SelectField>
    </>
  );
}
