import { COMPOSER_CSS } from './composer-styles';

/** The composer's own stylesheet, hoisted once by React (href + precedence) whichever view is shown. */
export function ComposerStyle() {
  return (
    <style href="tern-composer" precedence="tern">
      {COMPOSER_CSS}
    </style>
  );
}
