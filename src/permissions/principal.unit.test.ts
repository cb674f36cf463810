import { describe, expect, it } from 'vitest';
import { isAdmin, isSystemAdmin, mayManageUser, principalKind, type Principal } from './index.js';

const p = (o: Partial<Principal>): Principal => ({ adminKz: false, supportKz: false, tenantAdminKz: false, rollen: [], ...o });
const plain = { adminKz: false, supportKz: false };

describe('who is who', () => {
  it.each([
    ['system administrator', p({ adminKz: true }), 'systemAdmin', true, true],
    ['tenant administrator', p({ tenantAdminKz: true }), 'tenantAdmin', false, true],
    ['support, even with flags', p({ supportKz: true, adminKz: true, tenantAdminKz: true }), 'support', false, false],
    ['ordinary user', p({ rollen: [{ typ: 1, standortNr: null }] }), 'user', false, false],
  ])('%s', (_label, principal, kind, system, admin) => {
    expect(principalKind(principal)).toBe(kind);
    expect(isSystemAdmin(principal)).toBe(system);
    expect(isAdmin(principal)).toBe(admin);
  });
});

describe('mayManageUser', () => {
  it('lets a system administrator manage anyone', () => {
    for (const target of [plain, { adminKz: true, supportKz: false }, { adminKz: false, supportKz: true }]) {
      expect(mayManageUser(p({ adminKz: true }), target)).toBe(true);
    }
  });

  it('lets a tenant administrator manage ordinary users only', () => {
    const tadmin = p({ tenantAdminKz: true });
    expect(mayManageUser(tadmin, plain)).toBe(true);
    expect(mayManageUser(tadmin, { adminKz: true, supportKz: false })).toBe(false);
    expect(mayManageUser(tadmin, { adminKz: false, supportKz: true })).toBe(false);
  });

  it('lets nobody else manage anyone', () => {
    expect(mayManageUser(p({}), plain)).toBe(false);
    expect(mayManageUser(p({ supportKz: true, adminKz: true }), plain)).toBe(false);
  });
});
