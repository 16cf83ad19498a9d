// Egress policy: which addresses the service and its browsers may reach for a tenant (issue 10).
export {};
