import { Link } from 'react-router';

// Footer: external links to the chat community and the code-hosting page (docs/spec/part-1.txt section 2).
export function AppFooter() {
  return (
    <footer className="app-footer">
      <span>© {new Date().getFullYear()} Skald</span>
      <a href="https://discord.gg/skald" target="_blank" rel="noopener noreferrer">
        Discord community
      </a>
      <a href="https://github.com/skald-logs" target="_blank" rel="noopener noreferrer">
        GitHub
      </a>
      <Link to="/privacy-policy">Privacy Policy</Link>
      <Link to="/terms-of-service">Terms of Service</Link>
    </footer>
  );
}
