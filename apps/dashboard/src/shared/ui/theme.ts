import { createTheme, Modal, type CSSVariablesResolver } from '@mantine/core';

// Dark enough shades that white-on-colour and colour-on-white text meet WCAG AA (axe runs in the browser test).
export const theme = createTheme({
  primaryColor: 'blue',
  // Shade 9: text on its light/hover tints still meets 4.5:1 (shade 8 on a hover tint does not).
  primaryShade: { light: 9, dark: 8 },
  focusRing: 'auto',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  components: {
    // No fade-in: half-transparent dialog text fails contrast checks while it animates (and tests wait less).
    Modal: Modal.extend({ defaultProps: { transitionProps: { duration: 0 } } }),
  },
});

/** Mantine's "dimmed" grey (descriptions, hints) and error red are too light on white: darken them. */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    '--mantine-color-placeholder': 'var(--mantine-color-gray-7)',
  },
  dark: {},
});
