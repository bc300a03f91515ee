/**
 * A plain-text mail: escaped text (React text nodes), clickable links, quoted lines set
 * off, and the sender's hard wrapping undone where it surely was wrapping (hard-wraps.ts),
 * so a pane narrower than 72 columns does not show every line broken twice; tables and
 * code laid out with spaces in a monospace font (aligned-text.ts).
 */
import { Fragment, useMemo } from 'react';
import { alignedRuns } from './aligned-text';
import { unwrapHardWraps } from './hard-wraps';
import { linkify, quoteDepth } from './linkify';

interface Block {
  readonly depth: number;
  readonly text: string;
}

/** Groups consecutive lines of the same quote depth, so each quote renders as one block. */
export function quoteBlocks(text: string): Block[] {
  const blocks: { depth: number; lines: string[] }[] = [];
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    const depth = Math.min(quoteDepth(line), 4);
    const content = depth > 0 ? line.replace(/^(?:>\s?)+/, '') : line;
    const last = blocks.at(-1);
    if (last && last.depth === depth) last.lines.push(content);
    else blocks.push({ depth, lines: [content] });
  }
  return blocks.map((block) => ({ depth: block.depth, text: block.lines.join('\n') }));
}

function Linkified({ text, onMailto }: { readonly text: string; readonly onMailto?: (href: string) => void }) {
  return linkify(text).map((piece, i) =>
    piece.kind === 'text' ? (
      piece.text
    ) : (
      <a
        key={i}
        href={piece.href}
        target="_blank"
        rel="noopener noreferrer"
        title={piece.href.replace(/^mailto:/, '')}
        onClick={
          piece.href.startsWith('mailto:') && onMailto
            ? (event) => {
                event.preventDefault();
                onMailto(piece.href);
              }
            : undefined
        }
      >
        {piece.text}
      </a>
    ),
  );
}

export function PlainTextBody({ text, onMailto }: { readonly text: string; readonly onMailto?: (href: string) => void }) {
  const blocks = useMemo(
    () => quoteBlocks(unwrapHardWraps(text.replace(/\r\n?/g, '\n').replace(/\s+$/, ''))).map((block) => ({ ...block, runs: alignedRuns(block.text) })),
    [text],
  );
  return (
    <div className="tern-plain">
      {blocks.map((block, index) => (
        <div key={index} className={block.depth > 0 ? `tern-plain-quote tern-plain-quote-${block.depth}` : undefined}>
          {block.runs.map((run, i) => (
            <Fragment key={i}>
              {i > 0 && '\n'}
              {run.aligned ? (
                <span className="tern-plain-aligned">
                  <Linkified text={run.text} onMailto={onMailto} />
                </span>
              ) : (
                <Linkified text={run.text} onMailto={onMailto} />
              )}
            </Fragment>
          ))}
        </div>
      ))}
    </div>
  );
}
