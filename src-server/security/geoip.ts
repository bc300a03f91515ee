import { readFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { Reader, type CountryResponse } from 'maxmind';
import { isPublicAddress } from '../image-proxy/public-address';

/** The country of a client address, or null when it has none (private, loopback, unknown). */
export interface CountryLookup {
  countryOf(ip: string): string | null;
}

/** No database configured: every address is "no country", so the suspicious-country check never trips. */
export const NO_COUNTRIES: CountryLookup = { countryOf: () => null };

/**
 * Opens the operator's MaxMind country database (TERN_GEOIP_COUNTRY_DB: GeoLite2-Country or
 * GeoIP2-Country, or any .mmdb with `country.iso_code`). A path that was set but cannot be read
 * or is not such a database stops the gateway with a message naming the variable: the operator
 * asked for the check, and running silently without it would be worse than not starting.
 */
export async function openCountryLookup(path: string): Promise<CountryLookup> {
  let reader: Reader<CountryResponse>;
  try {
    reader = new Reader<CountryResponse>(await readFile(path));
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : error instanceof Error ? error.message : String(error);
    throw new Error(`TERN_GEOIP_COUNTRY_DB: ${path} cannot be used as a MaxMind country database (${reason}). Fix the path or unset the variable to turn the suspicious-country check off.`);
  }
  return {
    countryOf(ip) {
      const address = ip.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
      // Private, loopback, link-local, documentation and other special ranges have no country.
      if (!isIP(address) || !isPublicAddress(address)) return null;
      try {
        const found = reader.get(address);
        return found?.country?.iso_code ?? found?.registered_country?.iso_code ?? null;
      } catch {
        return null; // an IPv6 address in an IPv4-only database
      }
    },
  };
}
