import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { Drawer } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { COMMON_NAMESPACE } from '../provider/console-i18n';
import { ConfirmDialog } from './confirm-dialog';

const DirtyReport = createContext<(dirty: boolean) => void>(() => undefined);

/** A form inside a {@link FormDrawer} says whether it holds unsaved edits. */
export function useUnsavedEdits(dirty: boolean): void {
  const report = useContext(DirtyReport);
  useEffect(() => {
    report(dirty);
  }, [dirty, report]);
  useEffect(() => () => report(false), [report]);
}

/** True when two form states differ (plain data: strings, numbers, booleans, arrays, objects). */
export function formChanged(initial: unknown, current: unknown): boolean {
  return JSON.stringify(initial) !== JSON.stringify(current);
}

/** The width of every form drawer from the `sm` breakpoint up, as the spec sets it. */
export const DRAWER_WIDTH = 600;

export interface FormDrawerProps {
  open: boolean;
  /** Closes the drawer: its form's own Cancel and a finished save call it directly. */
  onClose: () => void;
  /** Paper width from the `sm` breakpoint up; phones get the full width. */
  width: number;
  children: ReactNode;
}

/**
 * A right-hand drawer holding a form. Escape or a click on the backdrop closes it at once while the
 * form is untouched, and asks first when the form reports unsaved edits ({@link useUnsavedEdits}).
 */
export function FormDrawer({ open, onClose, width, children }: FormDrawerProps) {
  const { t } = useTranslation(COMMON_NAMESPACE);
  const [dirty, setDirty] = useState(false);
  const [asking, setAsking] = useState(false);
  const report = useCallback((value: boolean) => setDirty(value), []);
  const requestClose = () => {
    if (dirty) {
      setAsking(true);
    } else {
      onClose();
    }
  };
  return (
    <>
      <Drawer
        anchor="right"
        open={open}
        onClose={requestClose}
        slotProps={{ paper: { sx: { width: { xs: '100%', sm: width } } } }}
      >
        <DirtyReport.Provider value={report}>{children}</DirtyReport.Provider>
      </Drawer>
      <ConfirmDialog
        open={open && asking}
        title={t('unsaved.title')}
        message={t('unsaved.message')}
        confirmLabel={t('unsaved.discard')}
        cancelLabel={t('unsaved.keep')}
        onCancel={() => setAsking(false)}
        onConfirm={() => {
          setAsking(false);
          setDirty(false);
          onClose();
        }}
      />
    </>
  );
}
