// Countries under a comprehensive embargo: a payment that touches one (a party's address or
// residence, a BIC's country) is held for review whatever the names, because the programme covers
// the whole country, not listed persons. Syria is not here: the United States revoked its
// comprehensive Syria programme in 2025 (Executive Order 14312), and the EU and UK lifted theirs.
export const COMPREHENSIVE_EMBARGOES: Readonly<Record<string, string>> = {
  CU: 'Cuba: comprehensive embargo (OFAC Cuban Assets Control Regulations)',
  IR: 'Iran: comprehensive embargo (OFAC Iranian Transactions and Sanctions Regulations)',
  KP: 'North Korea: comprehensive embargo (OFAC North Korea Sanctions Regulations, UN Security Council)',
};
