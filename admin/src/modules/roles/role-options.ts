/** A role as the roles screens read it. */
export interface RoleRecord {
  id: string;
  name: string;
  icon: string | null;
  description: string | null;
  app_access: boolean;
  admin_access: boolean;
  ip_access: string[] | null;
  enforce_tfa: boolean;
  users_count?: number;
}

/** Fields the roles list reads (with the number of users per role). */
export const ROLE_LIST_FIELDS = ['id', 'name', 'icon', 'description', 'app_access', 'admin_access', 'count(users)'];

/** The route id of the public role (requests without a user): its permission rows have `role = null`. */
export const PUBLIC_ROLE_ID = 'public';

/** IPv4/IPv6 addresses and CIDR ranges, loosely: what an ip_access entry may look like. */
export const IP_ENTRY = /^[0-9a-fA-F:.]+(\/\d{1,3})?$/;
