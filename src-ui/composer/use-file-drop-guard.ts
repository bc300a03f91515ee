/**
 * While the composer is open, a file dropped a little beside it must not make the browser
 * open the file in place of the app (leaving the page, composer and all). The composer's
 * own drop handler runs first and attaches what lands on it; this only stops the default
 * everywhere else.
 */
import { useEffect } from 'react';

const carriesFiles = (event: DragEvent) => Array.from(event.dataTransfer?.types ?? []).includes('Files');

export function useFileDropGuard(): void {
  useEffect(() => {
    const stop = (event: DragEvent) => {
      if (carriesFiles(event)) event.preventDefault();
    };
    window.addEventListener('dragover', stop);
    window.addEventListener('drop', stop);
    return () => {
      window.removeEventListener('dragover', stop);
      window.removeEventListener('drop', stop);
    };
  }, []);
}
