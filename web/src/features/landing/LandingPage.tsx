import { Link } from 'react-router';
import { Panel } from '../common/Panel.tsx';

// Landing page offers (docs/spec/part-1.txt section 1); every Get Started goes to /register. Plain markup styled like antd's
// Typography, Card and grid (styles.css): the first page a visitor opens loads no antd component code.
const FEATURES = [
  { title: 'Easy Setup', text: 'Create a server, copy its API key and send your first log in minutes.' },
  { title: 'Manage Servers', text: 'Run multiple servers with scoped logs and user roles for your team.' },
  { title: 'Logs API', text: 'Send logs with customizable levels, types and metadata from any game server.' },
  { title: 'Secure API Tokens', text: 'Every server has its own API token that can be regenerated at any time.' },
  { title: 'Automated Database Backups', text: 'Schedule backups of your game database and download them when needed.' },
  { title: 'Photo Logs', text: 'Attach screenshots to your logs and browse them in a gallery.' },
];

export default function LandingPage() {
  return (
    <div className="landing">
      <section className="hero">
        <h1 className="hero-title">Logs for your game servers</h1>
        <p className="hero-text">
          Skald collects text and photo logs from your FiveM and Minecraft servers, with dashboards, filters, webhooks and backups.
        </p>
        {/* A styled link, not a button inside a link: one element, one tab stop, valid HTML. */}
        <Link to="/register" className="cta-link">
          Get Started
        </Link>
        <ul className="games" aria-label="Supported games">
          <li>FiveM</li>
          <li>Minecraft</li>
        </ul>
      </section>
      <div className="feature-grid">
        {FEATURES.map((f) => (
          <Panel key={f.title} title={f.title} className="feature-card">
            <p>{f.text}</p>
            <Link to="/register">Get Started</Link>
          </Panel>
        ))}
      </div>
    </div>
  );
}
