import { useEffect, useRef } from 'react';
import { Box, Typography } from '@mui/material';

interface Particle {
  x: number;
  y: number;
  vx: number;
  vy: number;
  life: number;
  hue: number;
}

const DURATION_MS = 4500;
const GRAVITY = 0.05;

/**
 * The New Year item's fireworks: bursts of particles on a canvas over the page for a few seconds,
 * then `onDone`. Clicks go through to the page; people who ask for reduced motion get the greeting only.
 */
export function Fireworks({ greeting, onDone }: { greeting: string; onDone: () => void }) {
  const canvasRef = useRef<HTMLCanvasElement | null>(null);

  useEffect(() => {
    const finish = setTimeout(onDone, DURATION_MS);
    const canvas = canvasRef.current;
    const context = canvas?.getContext('2d');
    const reduced = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
    if (!canvas || !context || reduced) {
      return () => clearTimeout(finish);
    }
    canvas.width = window.innerWidth;
    canvas.height = window.innerHeight;
    const particles: Particle[] = [];
    const burst = () => {
      const x = canvas.width * (0.15 + Math.random() * 0.7);
      const y = canvas.height * (0.15 + Math.random() * 0.35);
      const hue = Math.floor(Math.random() * 360);
      for (let i = 0; i < 70; i += 1) {
        const angle = (Math.PI * 2 * i) / 70;
        const speed = 1.5 + Math.random() * 3;
        particles.push({ x, y, vx: Math.cos(angle) * speed, vy: Math.sin(angle) * speed, life: 1, hue });
      }
    };
    burst();
    const bursts = setInterval(burst, 550);
    let frame = 0;
    const draw = () => {
      context.clearRect(0, 0, canvas.width, canvas.height);
      for (let i = particles.length - 1; i >= 0; i -= 1) {
        const p = particles[i];
        p.x += p.vx;
        p.y += p.vy;
        p.vy += GRAVITY;
        p.life -= 0.012;
        if (p.life <= 0) {
          particles.splice(i, 1);
          continue;
        }
        context.fillStyle = `hsla(${p.hue}, 100%, 60%, ${p.life})`;
        context.beginPath();
        context.arc(p.x, p.y, 2.2, 0, Math.PI * 2);
        context.fill();
      }
      frame = requestAnimationFrame(draw);
    };
    frame = requestAnimationFrame(draw);
    return () => {
      clearTimeout(finish);
      clearInterval(bursts);
      cancelAnimationFrame(frame);
    };
  }, [onDone]);

  return (
    <Box
      data-testid="fireworks"
      aria-live="polite"
      sx={{ position: 'fixed', inset: 0, pointerEvents: 'none', zIndex: 2000 }}
    >
      <canvas ref={canvasRef} style={{ width: '100%', height: '100%' }} />
      <Typography
        variant="h3"
        component="p"
        sx={{
          position: 'absolute',
          top: '40%',
          width: '100%',
          textAlign: 'center',
          fontWeight: 700,
          color: 'warning.main',
          textShadow: '0 2px 8px rgba(0,0,0,.35)',
        }}
      >
        {greeting}
      </Typography>
    </Box>
  );
}
