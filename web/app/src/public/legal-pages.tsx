import { Button } from '@vigil/ui';
import { FileText, ShieldCheck } from 'lucide-react';
import { Link } from 'react-router-dom';
import { CONTACT_LINK } from '../shell/nav-links.js';
import { usePageTitle } from '../shell/page-title.js';
import { PageHero, Prose } from './page-parts.js';

export function PrivacyPolicyPage() {
  usePageTitle('Privacy Policy');
  return (
    <>
      <PageHero
        eyebrow="Legal"
        icon={ShieldCheck}
        title="Privacy Policy"
        lead="How Vigil collects, uses and protects personal data. Last updated January 2025."
      />
      <Prose>
        <section>
          <h2>Information we collect</h2>
          <p>We collect the information you give us when you create an account and use the service:</p>
          <ul>
            <li>Account details: your name, e-mail address and company details.</li>
            <li>Billing details, processed by our payment provider; we do not store full card numbers.</li>
            <li>The names and attributes you submit for screening, and the results returned.</li>
            <li>Technical data: IP addresses, browser type and logs of API and account activity.</li>
          </ul>
        </section>
        <section>
          <h2>How we use information</h2>
          <ul>
            <li>To provide screening, monitoring and alerts, and to keep the audit records you rely on.</li>
            <li>To bill you, support you and tell you about changes to the service.</li>
            <li>To secure the service, detect abuse and meet our own legal obligations.</li>
          </ul>
          <p>We do not sell personal data and do not use your screening data to train models for other customers.</p>
        </section>
        <section>
          <h2>Security</h2>
          <p>
            Data is encrypted in transit and at rest. API keys and passwords are stored only as hashes. Access to production
            systems is limited, logged and reviewed.
          </p>
        </section>
        <section>
          <h2>Retention</h2>
          <p>
            Screening records are kept for as long as your contract requires, so you can evidence your checks, and then deleted.
            Account data is kept while your account is open and for the period the law requires afterwards.
          </p>
        </section>
        <section>
          <h2>Your rights</h2>
          <p>
            Depending on where you live you may have the right to access, correct, delete or export your personal data, and to
            object to or restrict its processing. Contact us to exercise them; we answer within one month.
          </p>
        </section>
        <section>
          <h2>Contact</h2>
          <p>Questions about this policy or your data? Our team will help.</p>
          <Button asChild className="mt-4">
            <Link to={CONTACT_LINK}>Contact us</Link>
          </Button>
        </section>
      </Prose>
    </>
  );
}

export function TermsOfServicePage() {
  usePageTitle('Terms of Service');
  return (
    <>
      <PageHero
        eyebrow="Legal"
        icon={FileText}
        title="Terms of Service"
        lead="The agreement between you and Vigil for the use of the screening service. Last updated January 2025."
      />
      <Prose>
        <section>
          <h2>1. Acceptance of terms</h2>
          <p>By creating an account or using the API you accept these terms on behalf of yourself and your organisation.</p>
        </section>
        <section>
          <h2>2. Service description</h2>
          <p>
            Vigil screens names against sanctions, politically exposed person and other watch lists through a REST API and a
            web dashboard, and can re-screen monitored names when lists change.
          </p>
        </section>
        <section>
          <h2>3. User responsibilities</h2>
          <ul>
            <li>Keep your credentials and API keys secret and tell us at once if one is compromised.</li>
            <li>Screen only data you are entitled to process, for lawful compliance purposes.</li>
            <li>Review possible matches and make your own compliance decisions; the service supports them, it does not make them.</li>
          </ul>
        </section>
        <section>
          <h2>4. API usage and limits</h2>
          <p>
            Each plan has a monthly quota and a rate limit. Requests beyond them are refused until the quota resets or you
            upgrade. Do not attempt to bypass limits or extract list data in bulk.
          </p>
        </section>
        <section>
          <h2>5. Data and privacy</h2>
          <p>Our Privacy Policy describes how we handle personal data. You remain the controller of the data you submit.</p>
        </section>
        <section>
          <h2>6. Service availability</h2>
          <p>We target 99.9% monthly uptime for the API, excluding announced maintenance.</p>
        </section>
        <section>
          <h2>7. Payment and billing</h2>
          <p>
            Plans are billed in advance, monthly or yearly. Upgrades are charged pro rata. We announce price changes at least 30
            days before they take effect.
          </p>
        </section>
        <section>
          <h2>8. Limitation of liability</h2>
          <p>
            No screening service can guarantee complete or error-free list data or matching. To the extent the law allows, Vigil
            is not liable for entities a screen does not return, or for indirect or consequential loss; our total liability is
            limited to the fees you paid in the twelve months before the claim.
          </p>
        </section>
        <section>
          <h2>9. Termination</h2>
          <p>
            Either party may end the agreement with 30 days’ written notice. We may suspend or end it immediately for a material
            breach, including misuse of the API.
          </p>
        </section>
        <section>
          <h2>10. Contact</h2>
          <p>Questions about these terms? Get in touch.</p>
          <Button asChild className="mt-4">
            <Link to={CONTACT_LINK}>Contact us</Link>
          </Button>
        </section>
      </Prose>
    </>
  );
}
