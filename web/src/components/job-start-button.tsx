import { Button, type ButtonProps } from '@aws-amplify/ui-react';
import { ConfirmDialog } from './dialog';
import type { StartedJob } from './use-job-status';

export interface JobStartButtonProps<S> {
  job: StartedJob<S>;
  /** The button's text, also the confirmation's title. */
  label: string;
  /** What the button reads while the job runs (it is disabled then). */
  runningLabel: string;
  /** The confirmation's question. */
  question: string;
  colorTheme?: ButtonProps['colorTheme'];
}

/** The button that starts a background job after its confirmation, disabled while the job starts or runs. */
export function JobStartButton<S>({ job, label, runningLabel, question, colorTheme }: JobStartButtonProps<S>) {
  return (
    <>
      <Button
        variation="primary"
        colorTheme={colorTheme}
        isDisabled={job.running || job.starting}
        onClick={() => job.setConfirming(true)}
      >
        {job.running ? runningLabel : label}
      </Button>
      <ConfirmDialog
        open={job.confirming}
        title={label}
        message={question}
        busy={job.starting}
        onConfirm={() => void job.start()}
        onCancel={() => job.setConfirming(false)}
      />
    </>
  );
}
