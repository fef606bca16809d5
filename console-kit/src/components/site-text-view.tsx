import { Box } from '@mui/material';
import { isStandaloneUrl } from '../format/standalone-url';
import { useSafeHtml } from '../format/use-safe-html';

/**
 * Admin-written site text (home page, about): a lone URL is shown as that page in an iframe, anything
 * else as markdown/HTML reduced to the safe subset.
 */
export function SiteTextView({
  text,
  frameTitle,
  testId,
}: {
  text: string;
  frameTitle: string;
  testId?: string;
}) {
  const url = isStandaloneUrl(text) ? text.trim() : null;
  const html = useSafeHtml(url ? '' : text, 'markdown');
  if (url) {
    return (
      <Box
        component="iframe"
        data-testid={testId}
        src={url}
        title={frameTitle}
        // The framed page keeps its own origin but may not navigate or script this one.
        sandbox="allow-scripts allow-same-origin allow-popups allow-forms"
        referrerPolicy="no-referrer"
        sx={{ display: 'block', width: '100%', height: 'calc(100vh - 120px)', border: 0 }}
      />
    );
  }
  return (
    <Box
      data-testid={testId}
      sx={{
        maxWidth: 960,
        mx: 'auto',
        p: { xs: 2, sm: 3 },
        lineHeight: 1.7,
        wordBreak: 'break-word',
        '& img': { maxWidth: '100%' },
        '& a': { color: 'primary.main' },
        '& pre': { overflowX: 'auto', p: 1.5, bgcolor: 'action.hover', borderRadius: 1 },
        '& table': { borderCollapse: 'collapse' },
        '& th, & td': { border: 1, borderColor: 'divider', px: 1, py: 0.5 },
      }}
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
