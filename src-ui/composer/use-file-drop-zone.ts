/**
 * Files dragged over the composer: whether they are over it now (the drop overlay shows),
 * and the dropped files handed on. Only drags that carry files count; the depth counter
 * keeps the state through the enter/leave pairs of the composer's children.
 */
import { useRef, useState, type DragEvent } from 'react';

const hasFiles = (event: DragEvent) => Array.from(event.dataTransfer?.types ?? []).includes('Files');

export function useFileDropZone(onFiles: (files: readonly File[]) => void) {
  const [dragging, setDragging] = useState(false);
  const dragDepth = useRef(0);
  const handlers = {
    onDragEnter(event: DragEvent) {
      if (!hasFiles(event)) return;
      event.preventDefault();
      dragDepth.current++;
      setDragging(true);
    },
    onDragOver(event: DragEvent) {
      if (hasFiles(event)) event.preventDefault();
    },
    onDragLeave(event: DragEvent) {
      if (!hasFiles(event)) return;
      dragDepth.current = Math.max(0, dragDepth.current - 1);
      if (dragDepth.current === 0) setDragging(false);
    },
    onDrop(event: DragEvent) {
      if (!hasFiles(event)) return;
      event.preventDefault();
      dragDepth.current = 0;
      setDragging(false);
      onFiles(Array.from(event.dataTransfer.files));
    },
  };
  return { dragging, handlers };
}
