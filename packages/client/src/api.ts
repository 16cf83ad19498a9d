// Generated from openapi.yaml by scripts/client-types.mjs (openapi-typescript). Do not edit.

export interface paths {
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Alive (and what an operator should fix, e.g. report links that would point at loopback) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            ok: boolean;
                            node: string;
                            /** @description Configuration an operator should look at; absent when there is none. */
                            warnings?: string[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Ready: Redis reachable and browsers up (503 otherwise) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            ready: boolean;
                            redis: boolean;
                            browsers: number;
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            ready: boolean;
                            redis: boolean;
                            browsers: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/pool": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This node's browser pool: browsers, leased and warm contexts, capacity */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            node: string;
                            sessions: number;
                            leased: number;
                            warm: number;
                            capacity: number;
                            available: number;
                            restarts: number;
                            /** @description Chromium runs with its OS sandbox. */
                            sandbox: boolean;
                            /** @description tenant: every browser serves one tenant only. */
                            isolation: "tenant" | "none";
                            browsers: {
                                id: string;
                                pid: number | null;
                                leased: number;
                                warm: number;
                                connected: boolean;
                                /** @description Serves one tenant (false: a spare, or isolation off). */
                                dedicated: boolean;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/pressure": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This node's load and whether it can take work; ?format=text answers 503 when it cannot (for load balancers) */
        get: {
            parameters: {
                query?: {
                    format?: "json" | "text";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            node: string;
                            /** @description Live sessions on this node. */
                            running: number;
                            /** @description Contexts leased on this node. */
                            leased: number;
                            /** @description Context slots on this node. */
                            capacity: number;
                            /** @description Session requests waiting for capacity, cluster-wide (-1: unknown). */
                            queued: number;
                            /** @description Contexts leased in the whole cluster (-1: unknown). */
                            clusterLeased: number;
                            /** @description Context slots of all live nodes (-1: unknown). */
                            clusterCapacity: number;
                            nodes: number;
                            /** @description Load average (1 min) per core. */
                            cpu: number;
                            memory: {
                                usedRatio: number;
                                rssBytes: number;
                            };
                            /** @description This node can take a new session now. */
                            available: boolean;
                            reason?: string;
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            node: string;
                            /** @description Live sessions on this node. */
                            running: number;
                            /** @description Contexts leased on this node. */
                            leased: number;
                            /** @description Context slots on this node. */
                            capacity: number;
                            /** @description Session requests waiting for capacity, cluster-wide (-1: unknown). */
                            queued: number;
                            /** @description Contexts leased in the whole cluster (-1: unknown). */
                            clusterLeased: number;
                            /** @description Context slots of all live nodes (-1: unknown). */
                            clusterCapacity: number;
                            nodes: number;
                            /** @description Load average (1 min) per core. */
                            cpu: number;
                            memory: {
                                usedRatio: number;
                                rssBytes: number;
                            };
                            /** @description This node can take a new session now. */
                            available: boolean;
                            reason?: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Prometheus metrics of this node (needs a key unless METRICS_PUBLIC=1; public metrics carry no tenant labels) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": string;
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List this tenant's sessions */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            sessions: {
                                id: string;
                                tenant: string;
                                status: "active" | "crashed" | "expired" | "closed" | "lost";
                                /** @description The node that owns the browser contexts. */
                                node: string;
                                /** Format: date-time */
                                createdAt: string;
                                /** Format: date-time */
                                lastUsedAt: string;
                                /**
                                 * Format: date-time
                                 * @description Absolute end of life (TTL).
                                 */
                                expiresAt: string;
                                idleTimeoutSeconds: number;
                                metadata?: {
                                    [key: string]: string;
                                };
                                roles: {
                                    name: string;
                                    viewport: {
                                        width: number;
                                        height: number;
                                    };
                                    /** @description The pool browser holding this role's context (GET /v1/pool lists them). */
                                    browserId?: string;
                                    pages: {
                                        /** @description Tab id, stable for the life of the tab. */
                                        id: string;
                                        url: string;
                                        title: string;
                                        /** @description The tab page operations use when no ?page= is given. */
                                        active: boolean;
                                        /** @description The tab that opened this one (popups). */
                                        openerId?: string;
                                    }[];
                                }[];
                            }[];
                            total: number;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Create a session: one isolated browser context per role */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        roles?: {
                            /** @description Role name: letters, digits, _ and -, at most 64 characters. */
                            name: string;
                            /** @description Playwright storage state (cookies and localStorage per origin). */
                            storageState?: {
                                cookies: {
                                    name: string;
                                    value: string;
                                    domain?: string;
                                    path?: string;
                                    url?: string;
                                    expires?: number;
                                    httpOnly?: boolean;
                                    secure?: boolean;
                                    sameSite?: "Strict" | "Lax" | "None";
                                }[];
                                origins: {
                                    origin: string;
                                    localStorage: {
                                        name: string;
                                        value: string;
                                    }[];
                                }[];
                            };
                            viewport?: {
                                width: number;
                                height: number;
                            };
                            userAgent?: string;
                            locale?: string;
                            timezoneId?: string;
                            extraHTTPHeaders?: {
                                [key: string]: string;
                            };
                            baseURL?: string;
                        }[];
                        idleTimeoutSeconds?: number;
                        ttlSeconds?: number;
                        /** @description How long to wait for a free browser slot (default QUEUE_TIMEOUT_SECONDS); 0 = fail at once when full. */
                        queueTimeoutSeconds?: number;
                        metadata?: {
                            [key: string]: string;
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            tenant: string;
                            status: "active" | "crashed" | "expired" | "closed" | "lost";
                            /** @description The node that owns the browser contexts. */
                            node: string;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            lastUsedAt: string;
                            /**
                             * Format: date-time
                             * @description Absolute end of life (TTL).
                             */
                            expiresAt: string;
                            idleTimeoutSeconds: number;
                            metadata?: {
                                [key: string]: string;
                            };
                            roles: {
                                name: string;
                                viewport: {
                                    width: number;
                                    height: number;
                                };
                                /** @description The pool browser holding this role's context (GET /v1/pool lists them). */
                                browserId?: string;
                                pages: {
                                    /** @description Tab id, stable for the life of the tab. */
                                    id: string;
                                    url: string;
                                    title: string;
                                    /** @description The tab page operations use when no ?page= is given. */
                                    active: boolean;
                                    /** @description The tab that opened this one (popups). */
                                    openerId?: string;
                                }[];
                            }[];
                        };
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                410: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a session */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            tenant: string;
                            status: "active" | "crashed" | "expired" | "closed" | "lost";
                            /** @description The node that owns the browser contexts. */
                            node: string;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            lastUsedAt: string;
                            /**
                             * Format: date-time
                             * @description Absolute end of life (TTL).
                             */
                            expiresAt: string;
                            idleTimeoutSeconds: number;
                            metadata?: {
                                [key: string]: string;
                            };
                            roles: {
                                name: string;
                                viewport: {
                                    width: number;
                                    height: number;
                                };
                                /** @description The pool browser holding this role's context (GET /v1/pool lists them). */
                                browserId?: string;
                                pages: {
                                    /** @description Tab id, stable for the life of the tab. */
                                    id: string;
                                    url: string;
                                    title: string;
                                    /** @description The tab page operations use when no ?page= is given. */
                                    active: boolean;
                                    /** @description The tab that opened this one (popups). */
                                    openerId?: string;
                                }[];
                            }[];
                        };
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                410: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete a session and release its contexts */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Every error: a stable code, a message, optional details. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                410: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions/{id}/roles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Add a role (a new isolated context) to a live session */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Role name: letters, digits, _ and -, at most 64 characters. */
                        name: string;
                        /** @description Playwright storage state (cookies and localStorage per origin). */
                        storageState?: {
                            cookies: {
                                name: string;
                                value: string;
                                domain?: string;
                                path?: string;
                                url?: string;
                                expires?: number;
                                httpOnly?: boolean;
                                secure?: boolean;
                                sameSite?: "Strict" | "Lax" | "None";
                            }[];
                            origins: {
                                origin: string;
                                localStorage: {
                                    name: string;
                                    value: string;
                                }[];
                            }[];
                        };
                        viewport?: {
                            width: number;
                            height: number;
                        };
                        userAgent?: string;
                        locale?: string;
                        timezoneId?: string;
                        extraHTTPHeaders?: {
                            [key: string]: string;
                        };
                        baseURL?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            tenant: string;
                            status: "active" | "crashed" | "expired" | "closed" | "lost";
                            /** @description The node that owns the browser contexts. */
                            node: string;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            lastUsedAt: string;
                            /**
                             * Format: date-time
                             * @description Absolute end of life (TTL).
                             */
                            expiresAt: string;
                            idleTimeoutSeconds: number;
                            metadata?: {
                                [key: string]: string;
                            };
                            roles: {
                                name: string;
                                viewport: {
                                    width: number;
                                    height: number;
                                };
                                /** @description The pool browser holding this role's context (GET /v1/pool lists them). */
                                browserId?: string;
                                pages: {
                                    /** @description Tab id, stable for the life of the tab. */
                                    id: string;
                                    url: string;
                                    title: string;
                                    /** @description The tab page operations use when no ?page= is given. */
                                    active: boolean;
                                    /** @description The tab that opened this one (popups). */
                                    openerId?: string;
                                }[];
                            }[];
                        };
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                410: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions/{id}/roles/{role}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove a role and release its context */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    /** @description Role name: letters, digits, _ and -, at most 64 characters. */
                    role: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            tenant: string;
                            status: "active" | "crashed" | "expired" | "closed" | "lost";
                            /** @description The node that owns the browser contexts. */
                            node: string;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            lastUsedAt: string;
                            /**
                             * Format: date-time
                             * @description Absolute end of life (TTL).
                             */
                            expiresAt: string;
                            idleTimeoutSeconds: number;
                            metadata?: {
                                [key: string]: string;
                            };
                            roles: {
                                name: string;
                                viewport: {
                                    width: number;
                                    height: number;
                                };
                                /** @description The pool browser holding this role's context (GET /v1/pool lists them). */
                                browserId?: string;
                                pages: {
                                    /** @description Tab id, stable for the life of the tab. */
                                    id: string;
                                    url: string;
                                    title: string;
                                    /** @description The tab page operations use when no ?page= is given. */
                                    active: boolean;
                                    /** @description The tab that opened this one (popups). */
                                    openerId?: string;
                                }[];
                            }[];
                        };
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                410: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions/{id}/roles/{role}/storage-state": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Export a role's storage state (cookies, localStorage) to persist a login */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    /** @description Role name: letters, digits, _ and -, at most 64 characters. */
                    role: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Playwright storage state (cookies and localStorage per origin). */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            cookies: {
                                name: string;
                                value: string;
                                domain?: string;
                                path?: string;
                                url?: string;
                                expires?: number;
                                httpOnly?: boolean;
                                secure?: boolean;
                                sameSite?: "Strict" | "Lax" | "None";
                            }[];
                            origins: {
                                origin: string;
                                localStorage: {
                                    name: string;
                                    value: string;
                                }[];
                            }[];
                        };
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                410: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions/{id}/roles/{role}/pages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List a role's tabs */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    /** @description Role name: letters, digits, _ and -, at most 64 characters. */
                    role: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            pages: {
                                /** @description Tab id, stable for the life of the tab. */
                                id: string;
                                url: string;
                                title: string;
                                /** @description The tab page operations use when no ?page= is given. */
                                active: boolean;
                                /** @description The tab that opened this one (popups). */
                                openerId?: string;
                            }[];
                        };
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                410: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        /** Open a tab (it becomes the active tab) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    /** @description Role name: letters, digits, _ and -, at most 64 characters. */
                    role: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        url?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Tab id, stable for the life of the tab. */
                            id: string;
                            url: string;
                            title: string;
                            /** @description The tab page operations use when no ?page= is given. */
                            active: boolean;
                            /** @description The tab that opened this one (popups). */
                            openerId?: string;
                        };
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                410: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions/{id}/roles/{role}/pages/{pageId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Close a tab */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    /** @description Role name: letters, digits, _ and -, at most 64 characters. */
                    role: string;
                    pageId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Every error: a stable code, a message, optional details. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                410: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions/{id}/roles/{role}/pages/{pageId}/select": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Make a tab the active one */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    /** @description Role name: letters, digits, _ and -, at most 64 characters. */
                    role: string;
                    pageId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            pages: {
                                /** @description Tab id, stable for the life of the tab. */
                                id: string;
                                url: string;
                                title: string;
                                /** @description The tab page operations use when no ?page= is given. */
                                active: boolean;
                                /** @description The tab that opened this one (popups). */
                                openerId?: string;
                            }[];
                        };
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                410: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions/{id}/roles/{role}/snapshot": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Accessibility snapshot with [ref=eN] ids (Playwright's AI mode), budgeted
         * @description The full-page snapshot is always taken; ref, offset, depth, maxTokens and diff views are cut from it on the server, so refs the agent already holds keep working. A node whose children do not all fit shows the first ones and a fold line (`… 988 more listitem (ref=e2, offset=12)`): page on with ?ref=e2&offset=12.
         */
        get: operations["snapshot"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions/{id}/roles/{role}/actions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Perform an action: by ref first, by description as a fallback */
        post: operations["action"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions/{id}/roles/{role}/screenshot": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Screenshot of the tab, the full page, or one element (ref) */
        get: operations["screenshot"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions/{id}/roles/{role}/console": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Console messages and page errors (newest last, bounded; format=text for models) */
        get: operations["console"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions/{id}/roles/{role}/network": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Network requests (recent first, bounded; format=text for models) */
        get: operations["network"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions/{id}/roles/{role}/network/{requestId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One request: headers and bodies (truncated) */
        get: operations["network.request"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions/{id}/roles/{role}/cookies": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The role's cookies (all, or those for ?url=) */
        get: operations["cookies"];
        put?: never;
        /** Add cookies to the role (optionally clearing all first) */
        post: operations["cookies.set"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions/{id}/roles/{role}/storage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** localStorage or sessionStorage of the tab's origin */
        get: operations["storage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions/{id}/roles/{role}/performance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Navigation and paint timing of the tab */
        get: operations["performance"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions/{id}/roles/{role}/explore/container": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Ancestor chain of a ref up to body: tags, stable attributes, child counts, refs inside each */
        get: operations["explore.container"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions/{id}/roles/{role}/explore/pattern": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The container `level` ancestors up and its children: tags, attributes, text, shallow outline, targetSiblingIndex */
        get: operations["explore.pattern"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions/{id}/roles/{role}/explore/anchors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Bounded deep scan of the ancestor `level` up: headings, labels, test ids, named controls, text, with depth and index */
        get: operations["explore.anchors"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions/{id}/roles/{role}/inspect/dom": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Progressive DOM drill-down: semantic children (wrapper divs skipped) with geometry and layout; zoom with ref or selector */
        get: operations["inspect.dom"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions/{id}/roles/{role}/inspect/test-ids": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every test id on the page (all frames, open shadow roots), grouped by attribute, duplicates flagged */
        get: operations["inspect.test-ids"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions/{id}/roles/{role}/inspect/query": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Test a selector: every match (bounded) with box, text, visibility and why hidden */
        get: operations["inspect.query"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions/{id}/roles/{role}/inspect/visibility": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Why a click might fail: visible, viewport ratio, clipped, covered (and by what), needs scroll */
        get: operations["inspect.visibility"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions/{id}/roles/{role}/inspect/position": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Box of an element (frame viewport coordinates), page coordinates, in viewport */
        get: operations["inspect.position"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions/{id}/roles/{role}/inspect/state": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Interaction state: enabled, editable, checked, selected, focused, required, aria states, value */
        get: operations["inspect.state"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions/{id}/roles/{role}/inspect/attributes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Attributes of an element grouped as all / data / aria */
        get: operations["inspect.attributes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions/{id}/roles/{role}/inspect/frames": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every iframe (nested too): selector chain, name, src, URL, size, visible */
        get: operations["inspect.frames"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions/{id}/roles/{role}/inspect/text": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Text of an element (innerText when rendered), bounded */
        get: operations["inspect.text"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions/{id}/roles/{role}/dom": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Abbreviated DOM across nested iframes and open shadow roots, with [FRAME]/[SHADOW-ROOT]/[CUSTOM] blocks and a ↳ PATH line per interactive element
         * @description Each ↳ PATH line gives locator (unique in its scope), shadowHost (host selectors, outermost first, space-separated; spaces only inside quoted values) and frameSelector (iframe selectors joined by " >> "): page.frameLocator(f1).frameLocator(f2).locator(host1).locator(host2).locator(locator) finds exactly that element. Script/style and zero-size elements are skipped; the output is capped (default 24,000 chars) with an explicit [TRUNCATED] marker.
         */
        get: operations["dom"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions/{id}/roles/{role}/locators": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Verified Playwright locators for a ref, best first, with Playwright's normalize() as a baseline
         * @description Ranked by score: role + exact name unique on the page; a stable container (test id, id, landmark, semantic or custom-element tag, class, structure) picked by an exact heading or text and role + exact name inside; the element's own test id / label / placeholder; structural CSS; nth() last. Generated ids (React/Radix/Headless UI/Vue/Angular/Ember/MUI, CSS-in-JS classes, UUIDs, counters, per-session hashes) are never used. Each candidate lists its weaknesses and was checked against a near-duplicate; every returned locator resolved on the live page to exactly one element, the ref's element.
         */
        get: operations["locators"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/runs/{id}/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * WebSocket: the run's events, replayed from ?since= then live; closes with 1000 after run_finished
         * @description WebSocket upgrade (send `Connection: Upgrade`, `Upgrade: websocket`). Messages and close codes: docs/api.md.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Replay events after this sequence number (default 0: everything). */
                    since?: number;
                    /** @description API key, for clients that cannot set the Authorization header. */
                    token?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Switching Protocols: the connection is now a WebSocket. */
                101: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/runs/{id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Server-sent events: the run's events, replayed from ?since= (or Last-Event-ID) then live; ends after run_finished */
        get: {
            parameters: {
                query?: {
                    /** @description Replay events after this sequence number (default 0: everything). */
                    since?: number;
                    /** @description API key, for clients that cannot set the Authorization header. */
                    token?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description text/event-stream: `id: <seq>`, `event: <type>`, `data: <JSON>` */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": string;
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This tenant's runs, newest first (bounded) */
        get: {
            parameters: {
                query?: {
                    status?: "queued" | "running" | "passed" | "failed" | "error" | "cancelled";
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            runs: {
                                id: string;
                                status: "queued" | "running" | "passed" | "failed" | "error" | "cancelled";
                                url: string;
                                planner: string;
                                model?: string;
                                createdAt: string;
                                startedAt?: string;
                                finishedAt?: string;
                                /** @description Workers that started this run (more than 1: its worker stopped and another took over). */
                                attempts: number;
                                replayOf?: string;
                                /** @description Variable names (values are never returned). */
                                variables: string[];
                                /** @description The saved suite (and deploy) that started this run. */
                                suite?: {
                                    id: string;
                                    plan: string;
                                    /** @description What started it: type (manual, github, vercel, netlify, generic), repo, sha, environment, delivery, suiteRun. */
                                    trigger?: {
                                        [key: string]: string;
                                    };
                                };
                                error?: {
                                    code: string;
                                    message: string;
                                };
                                totals?: unknown;
                                /** @description The JSON report: cases, steps (action, ref, verified locator, timing, screenshot, error), assertions, durations, counts. */
                                report?: unknown;
                                /** @description Outbound deliveries about this run, oldest first, with every try (never a secret or token). */
                                deliveries?: {
                                    /** @description callback, webhook, slack or github_status. */
                                    kind: string;
                                    event: string;
                                    /** @description Where it went (a Slack URL shows its origin only). */
                                    url: string;
                                    /** @description GitHub statuses: the state posted. */
                                    state?: string;
                                    suiteRun?: string;
                                    delivered: boolean;
                                    attempts: {
                                        at: string;
                                        durationMs: number;
                                        status?: number;
                                        error?: string;
                                    }[];
                                }[];
                                /** @description Only in the 202 answer of a run with a callbackUrl and no callbackSecret: the generated signing secret, shown once. */
                                callbackSecret?: string;
                                links: {
                                    [key: string]: string;
                                };
                            }[];
                            total: number;
                        };
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        /** Run a plain-English plan in real browsers (a queued job; 202 with the run id) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Where the flow starts (http or https). Required unless replayOf. */
                        url?: string;
                        /** @description Markdown: #Case N: name, bullets for steps; Verify/Check/Assert/Confirm/Ensure bullets are mandatory assertions; {{VAR}} variables; "as role:" prefixes. */
                        plan?: string;
                        planner?: "rules" | "anthropic" | "openai";
                        model?: string;
                        /** @description Model API key for this run (never returned). */
                        apiKey?: string;
                        /** @description Model API base URL (OpenAI-compatible servers: Ollama, vLLM, LM Studio). */
                        baseUrl?: string;
                        /** @description Values for {{NAME}} in the plan. Names like PASSWORD, TOKEN, SECRET, KEY, OTP or PIN are secret: never returned, scrubbed from reports, events, logs and traces, and sealed at rest with SECRETS_KEY. */
                        variables?: {
                            [key: string]: string;
                        };
                        /** @description Variables that are secret whatever their names (write-only): used like variables, never returned nor shown in reports, events, logs or traces; sealed at rest with SECRETS_KEY (without it, stored as given, like apiKey). */
                        secrets?: {
                            [key: string]: string;
                        };
                        /** @description Context settings for roles the plan uses. */
                        roles?: {
                            /** @description Role name: letters, digits, _ and -, at most 64 characters. */
                            name: string;
                            /** @description Playwright storage state (cookies and localStorage per origin). */
                            storageState?: {
                                cookies: {
                                    name: string;
                                    value: string;
                                    domain?: string;
                                    path?: string;
                                    url?: string;
                                    expires?: number;
                                    httpOnly?: boolean;
                                    secure?: boolean;
                                    sameSite?: "Strict" | "Lax" | "None";
                                }[];
                                origins: {
                                    origin: string;
                                    localStorage: {
                                        name: string;
                                        value: string;
                                    }[];
                                }[];
                            };
                            viewport?: {
                                width: number;
                                height: number;
                            };
                            userAgent?: string;
                            locale?: string;
                            timezoneId?: string;
                            extraHTTPHeaders?: {
                                [key: string]: string;
                            };
                            baseURL?: string;
                        }[];
                        /** @description http(s) URL the final report is POSTed to, signed (X-Ariadne-Signature: t=<unix s>,v1=<hex HMAC-SHA256 of "t.body">) and tried again with backoff; every try is listed in the run's deliveries. */
                        callbackUrl?: string;
                        /** @description Signs the callback (write-only). Left out: the service generates one and answers it once, as callbackSecret in the 202 answer. */
                        callbackSecret?: string;
                        /** @description Re-run the recorded actions of this run without the planner; steps whose locator no longer resolves are redone by the planner (self-healing). */
                        replayOf?: string;
                        /** @description Per-run limits; each is capped by the server's RUN_* settings. */
                        options?: {
                            /** @description Record a Playwright trace per case (default true). */
                            trace?: boolean;
                            /** @description A screenshot after every step (default true). */
                            screenshots?: boolean;
                            maxStepsPerCase?: number;
                            maxTurnsPerCase?: number;
                            maxTokensPerCase?: number;
                            maxTokensPerRun?: number;
                            caseTimeoutSeconds?: number;
                            runTimeoutSeconds?: number;
                            /** @description A failed case is tried again this many times, each in a fresh browser context starting from the cookies, storage and URL the case started with (default 0). A case that passes only then is reported flaky (case status, totals.flaky, JUnit), never passed. */
                            retries?: number;
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            status: "queued" | "running" | "passed" | "failed" | "error" | "cancelled";
                            url: string;
                            planner: string;
                            model?: string;
                            createdAt: string;
                            startedAt?: string;
                            finishedAt?: string;
                            /** @description Workers that started this run (more than 1: its worker stopped and another took over). */
                            attempts: number;
                            replayOf?: string;
                            /** @description Variable names (values are never returned). */
                            variables: string[];
                            /** @description The saved suite (and deploy) that started this run. */
                            suite?: {
                                id: string;
                                plan: string;
                                /** @description What started it: type (manual, github, vercel, netlify, generic), repo, sha, environment, delivery, suiteRun. */
                                trigger?: {
                                    [key: string]: string;
                                };
                            };
                            error?: {
                                code: string;
                                message: string;
                            };
                            totals?: unknown;
                            /** @description The JSON report: cases, steps (action, ref, verified locator, timing, screenshot, error), assertions, durations, counts. */
                            report?: unknown;
                            /** @description Outbound deliveries about this run, oldest first, with every try (never a secret or token). */
                            deliveries?: {
                                /** @description callback, webhook, slack or github_status. */
                                kind: string;
                                event: string;
                                /** @description Where it went (a Slack URL shows its origin only). */
                                url: string;
                                /** @description GitHub statuses: the state posted. */
                                state?: string;
                                suiteRun?: string;
                                delivered: boolean;
                                attempts: {
                                    at: string;
                                    durationMs: number;
                                    status?: number;
                                    error?: string;
                                }[];
                            }[];
                            /** @description Only in the 202 answer of a run with a callbackUrl and no callbackSecret: the generated signing secret, shown once. */
                            callbackSecret?: string;
                            links: {
                                [key: string]: string;
                            };
                        };
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/runs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A run: status and, once it has steps, its JSON report */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            status: "queued" | "running" | "passed" | "failed" | "error" | "cancelled";
                            url: string;
                            planner: string;
                            model?: string;
                            createdAt: string;
                            startedAt?: string;
                            finishedAt?: string;
                            /** @description Workers that started this run (more than 1: its worker stopped and another took over). */
                            attempts: number;
                            replayOf?: string;
                            /** @description Variable names (values are never returned). */
                            variables: string[];
                            /** @description The saved suite (and deploy) that started this run. */
                            suite?: {
                                id: string;
                                plan: string;
                                /** @description What started it: type (manual, github, vercel, netlify, generic), repo, sha, environment, delivery, suiteRun. */
                                trigger?: {
                                    [key: string]: string;
                                };
                            };
                            error?: {
                                code: string;
                                message: string;
                            };
                            totals?: unknown;
                            /** @description The JSON report: cases, steps (action, ref, verified locator, timing, screenshot, error), assertions, durations, counts. */
                            report?: unknown;
                            /** @description Outbound deliveries about this run, oldest first, with every try (never a secret or token). */
                            deliveries?: {
                                /** @description callback, webhook, slack or github_status. */
                                kind: string;
                                event: string;
                                /** @description Where it went (a Slack URL shows its origin only). */
                                url: string;
                                /** @description GitHub statuses: the state posted. */
                                state?: string;
                                suiteRun?: string;
                                delivered: boolean;
                                attempts: {
                                    at: string;
                                    durationMs: number;
                                    status?: number;
                                    error?: string;
                                }[];
                            }[];
                            /** @description Only in the 202 answer of a run with a callbackUrl and no callbackSecret: the generated signing secret, shown once. */
                            callbackSecret?: string;
                            links: {
                                [key: string]: string;
                            };
                        };
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Cancel a run (queued: removed; running: stopped at its next step) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            status: "queued" | "running" | "passed" | "failed" | "error" | "cancelled";
                            url: string;
                            planner: string;
                            model?: string;
                            createdAt: string;
                            startedAt?: string;
                            finishedAt?: string;
                            /** @description Workers that started this run (more than 1: its worker stopped and another took over). */
                            attempts: number;
                            replayOf?: string;
                            /** @description Variable names (values are never returned). */
                            variables: string[];
                            /** @description The saved suite (and deploy) that started this run. */
                            suite?: {
                                id: string;
                                plan: string;
                                /** @description What started it: type (manual, github, vercel, netlify, generic), repo, sha, environment, delivery, suiteRun. */
                                trigger?: {
                                    [key: string]: string;
                                };
                            };
                            error?: {
                                code: string;
                                message: string;
                            };
                            totals?: unknown;
                            /** @description The JSON report: cases, steps (action, ref, verified locator, timing, screenshot, error), assertions, durations, counts. */
                            report?: unknown;
                            /** @description Outbound deliveries about this run, oldest first, with every try (never a secret or token). */
                            deliveries?: {
                                /** @description callback, webhook, slack or github_status. */
                                kind: string;
                                event: string;
                                /** @description Where it went (a Slack URL shows its origin only). */
                                url: string;
                                /** @description GitHub statuses: the state posted. */
                                state?: string;
                                suiteRun?: string;
                                delivered: boolean;
                                attempts: {
                                    at: string;
                                    durationMs: number;
                                    status?: number;
                                    error?: string;
                                }[];
                            }[];
                            /** @description Only in the 202 answer of a run with a callbackUrl and no callbackSecret: the generated signing secret, shown once. */
                            callbackSecret?: string;
                            links: {
                                [key: string]: string;
                            };
                        };
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/runs/{id}/junit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The report as JUnit XML, for CI */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description application/xml */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": string;
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/runs/{id}/spec": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A Playwright Test file reproducing the passing cases with the verified locators and expect assertions */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description TypeScript (.spec.ts) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": string;
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/runs/{id}/artifacts/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A screenshot or Playwright trace of a run (names are in the report); the HTML report embeds its screenshots with signed URLs */
        get: {
            parameters: {
                query?: {
                    /** @description Signed link: expiry (unix seconds). */
                    exp?: number;
                    /** @description Signed link: hex HMAC-SHA256 (from POST /v1/runs/:id/report-link). Opens this page without a key until exp. */
                    sig?: string;
                };
                header?: never;
                path: {
                    id: string;
                    name: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description image/jpeg or application/zip (fetched from the node that ran the run) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": string;
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/runs/{id}/report": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The run's report as an HTML page for people: the failing step and its diagnostics first, then cases and steps with screenshots (key, or a signed link) */
        get: {
            parameters: {
                query?: {
                    /** @description Signed link: expiry (unix seconds). */
                    exp?: number;
                    /** @description Signed link: hex HMAC-SHA256 (from POST /v1/runs/:id/report-link). Opens this page without a key until exp. */
                    sig?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description text/html */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": string;
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/runs/{id}/report-link": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A signed, expiring URL of the run's HTML report, for people without an API key (commit statuses, chat) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description How long the link works (default 604800 s, 7 days; at most 30 days). */
                        ttlSeconds?: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            url: string;
                            /** @description ISO time the link stops working. */
                            expiresAt: string;
                        };
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/inboxes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List this tenant's inboxes */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            inboxes: {
                                id: string;
                                /** @description Send mail here (the service must receive mail for its domain: SMTP_PORT, INBOX_DOMAIN). */
                                address: string;
                                createdAt: string;
                                expiresAt: string;
                                /** @description Messages received so far. */
                                messages: number;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        /** Create a disposable inbox (an address that receives mail for this tenant until it expires) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Lifetime of the inbox and its messages (default INBOX_TTL_SECONDS). */
                        ttlSeconds?: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            /** @description Send mail here (the service must receive mail for its domain: SMTP_PORT, INBOX_DOMAIN). */
                            address: string;
                            createdAt: string;
                            expiresAt: string;
                            /** @description Messages received so far. */
                            messages: number;
                        };
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/inboxes/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get an inbox */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            /** @description Send mail here (the service must receive mail for its domain: SMTP_PORT, INBOX_DOMAIN). */
                            address: string;
                            createdAt: string;
                            expiresAt: string;
                            /** @description Messages received so far. */
                            messages: number;
                        };
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete an inbox and its messages */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Every error: a stable code, a message, optional details. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/inboxes/{id}/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An inbox's messages, oldest first, with the code and the confirmation link found in each
         * @description With waitSeconds, answers as soon as a message past `after` (matching `subject`/`from` when given) arrives, or with what there is when the time is up.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Wait up to this long for a new message. */
                    waitSeconds?: number;
                    /** @description Only messages after the first N (e.g. the count you already have). */
                    after?: number;
                    /** @description Only messages whose subject contains this (case-insensitive). */
                    subject?: string;
                    /** @description Only messages whose sender contains this (case-insensitive). */
                    from?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            inbox: {
                                id: string;
                                /** @description Send mail here (the service must receive mail for its domain: SMTP_PORT, INBOX_DOMAIN). */
                                address: string;
                                createdAt: string;
                                expiresAt: string;
                                /** @description Messages received so far. */
                                messages: number;
                            };
                            messages: {
                                id: string;
                                receivedAt: string;
                                from: string;
                                to: string[];
                                subject: string;
                                /** @description The text body, or the HTML body as text when there is no text part (fromHtml). */
                                text: string;
                                fromHtml: boolean;
                                links: {
                                    url: string;
                                    text?: string;
                                    /** @description keyword: the link says verify/confirm/activate/sign in; first-link: the first link that is not an unsubscribe/privacy/tracking one. */
                                    rule: string;
                                }[];
                                /** @description The verification code found in the message, and the rule that found it. */
                                code: {
                                    code: string;
                                    /** @description keyword: near a word such as "code", "OTP", "verification"; subject: the subject's only number; only-number: the body's only 4-8 digit number. */
                                    rule: string;
                                    /** @description The text around the code. */
                                    context: string;
                                } | null;
                                /** @description The confirmation (or magic sign-in) link, and the rule that found it. */
                                link: {
                                    url: string;
                                    text?: string;
                                    /** @description keyword: the link says verify/confirm/activate/sign in; first-link: the first link that is not an unsubscribe/privacy/tracking one. */
                                    rule: string;
                                } | null;
                                size: number;
                            }[];
                            waited: boolean;
                        };
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * MCP server (Streamable HTTP): browser, exploration, inspection, locator and flow tools over this API
         * @description The Model Context Protocol endpoint: POST JSON-RPC messages (initialize first; the answer carries Mcp-Session-Id), GET for the server event stream, DELETE to end the MCP session (its browser session is deleted). Host and Origin must name an allowed host (MCP_ALLOWED_HOSTS).
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        /**
         * MCP server (Streamable HTTP): browser, exploration, inspection, locator and flow tools over this API
         * @description The Model Context Protocol endpoint: POST JSON-RPC messages (initialize first; the answer carries Mcp-Session-Id), GET for the server event stream, DELETE to end the MCP session (its browser session is deleted). Host and Origin must name an allowed host (MCP_ALLOWED_HOSTS).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        /**
         * MCP server (Streamable HTTP): browser, exploration, inspection, locator and flow tools over this API
         * @description The Model Context Protocol endpoint: POST JSON-RPC messages (initialize first; the answer carries Mcp-Session-Id), GET for the server event stream, DELETE to end the MCP session (its browser session is deleted). Host and Origin must name an allowed host (MCP_ALLOWED_HOSTS).
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/quota": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's per-tenant limits and current usage, cluster-wide */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tenant: string;
                            limits: {
                                /** @description 0 = unlimited */
                                max_sessions: number;
                                max_contexts: number;
                                max_queued: number;
                                max_runs: number;
                                sessions_per_minute: number;
                            };
                            usage: {
                                sessions: number;
                                contexts: number;
                                runs: number;
                                sessions_last_minute: number;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/suites": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This tenant's suites, newest first */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            suites: {
                                id: string;
                                name: string;
                                baseUrl: string;
                                plans: {
                                    name: string;
                                    /** @description Markdown plan, as for POST /v1/runs. */
                                    plan: string;
                                    /** @description Where this plan starts, resolved against the base URL (default: the base URL itself). */
                                    path?: string;
                                }[];
                                variables: {
                                    [key: string]: string;
                                };
                                /** @description Names of the stored secrets (values are never returned). */
                                secrets: string[];
                                roles?: {
                                    /** @description Role name: letters, digits, _ and -, at most 64 characters. */
                                    name: string;
                                    /** @description Playwright storage state (cookies and localStorage per origin). */
                                    storageState?: {
                                        cookies: {
                                            name: string;
                                            value: string;
                                            domain?: string;
                                            path?: string;
                                            url?: string;
                                            expires?: number;
                                            httpOnly?: boolean;
                                            secure?: boolean;
                                            sameSite?: "Strict" | "Lax" | "None";
                                        }[];
                                        origins: {
                                            origin: string;
                                            localStorage: {
                                                name: string;
                                                value: string;
                                            }[];
                                        }[];
                                    };
                                    viewport?: {
                                        width: number;
                                        height: number;
                                    };
                                    userAgent?: string;
                                    locale?: string;
                                    timezoneId?: string;
                                    extraHTTPHeaders?: {
                                        [key: string]: string;
                                    };
                                    baseURL?: string;
                                }[];
                                planner?: string;
                                model?: string;
                                options?: unknown;
                                triggers: {
                                    id: string;
                                    type: string;
                                    environments?: string[];
                                    /** @description Paste this into the platform's webhook settings (with the same secret). */
                                    url: string;
                                }[];
                                schedule?: {
                                    cron: string;
                                    timezone?: string;
                                    /** @description When the next scheduled run starts (ISO time; null: not scheduled in Redis any more). */
                                    next: string | null;
                                };
                                retries: number;
                                notify: {
                                    type: string;
                                    on: string[];
                                    /** @description As it may be shown: a webhook's origin and path, a Slack URL's origin only. */
                                    url: string;
                                }[];
                                github?: {
                                    /** @description GitHub API base URL for commit statuses (default https://api.github.com; GitHub Enterprise: https://HOST/api/v3). The token is the suite secret GITHUB_TOKEN. */
                                    apiBase?: string;
                                };
                                /** @description Only in the answer that generated it (create, or the update that first set notify): keep it to verify X-Ariadne-Signature. Never shown again. */
                                notifySecret?: string;
                                /** @description The most recent suite run and its status. */
                                latest: {
                                    id: string;
                                    createdAt: string;
                                    baseUrl: string;
                                    /** @description flaky: every run passed, some case only on a retry. */
                                    status: "queued" | "running" | "passed" | "flaky" | "failed" | "error" | "cancelled";
                                    trigger: {
                                        /** @description manual, schedule, github, vercel, netlify or generic. */
                                        type: string;
                                        /** @description A scheduled run: the tick it was started for (ISO time). */
                                        scheduledFor?: string;
                                        repo?: string;
                                        sha?: string;
                                        environment?: string;
                                        delivery?: string;
                                    };
                                    runs: {
                                        plan: string;
                                        runId: string;
                                        /** @description null: the run has expired (RUN_RETENTION_SECONDS). */
                                        status: string | null;
                                        url: string;
                                    }[];
                                } | null;
                                createdAt: string;
                                updatedAt: string;
                            }[];
                        };
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        /** Save a suite: named plans, variables, write-only secrets, deploy triggers */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name: string;
                        /** @description Where the plans run unless a run or a deployment says otherwise (http or https). */
                        baseUrl: string;
                        plans: {
                            name: string;
                            /** @description Markdown plan, as for POST /v1/runs. */
                            plan: string;
                            /** @description Where this plan starts, resolved against the base URL (default: the base URL itself). */
                            path?: string;
                        }[];
                        variables?: {
                            [key: string]: string;
                        };
                        /** @description Write-only {{NAME}} variables, stored encrypted (SECRETS_KEY), redacted from every output whatever their names; a given map replaces the stored one. */
                        secrets?: {
                            [key: string]: string;
                        };
                        roles?: {
                            /** @description Role name: letters, digits, _ and -, at most 64 characters. */
                            name: string;
                            /** @description Playwright storage state (cookies and localStorage per origin). */
                            storageState?: {
                                cookies: {
                                    name: string;
                                    value: string;
                                    domain?: string;
                                    path?: string;
                                    url?: string;
                                    expires?: number;
                                    httpOnly?: boolean;
                                    secure?: boolean;
                                    sameSite?: "Strict" | "Lax" | "None";
                                }[];
                                origins: {
                                    origin: string;
                                    localStorage: {
                                        name: string;
                                        value: string;
                                    }[];
                                }[];
                            };
                            viewport?: {
                                width: number;
                                height: number;
                            };
                            userAgent?: string;
                            locale?: string;
                            timezoneId?: string;
                            extraHTTPHeaders?: {
                                [key: string]: string;
                            };
                            baseURL?: string;
                        }[];
                        planner?: "rules" | "anthropic" | "openai";
                        model?: string;
                        /** @description Per-run limits; each is capped by the server's RUN_* settings. */
                        options?: {
                            /** @description Record a Playwright trace per case (default true). */
                            trace?: boolean;
                            /** @description A screenshot after every step (default true). */
                            screenshots?: boolean;
                            maxStepsPerCase?: number;
                            maxTurnsPerCase?: number;
                            maxTokensPerCase?: number;
                            maxTokensPerRun?: number;
                            caseTimeoutSeconds?: number;
                            runTimeoutSeconds?: number;
                            /** @description A failed case is tried again this many times, each in a fresh browser context starting from the cookies, storage and URL the case started with (default 0). A case that passes only then is reported flaky (case status, totals.flaky, JUnit), never passed. */
                            retries?: number;
                        };
                        triggers?: {
                            /** @description On update: an existing trigger's id, to keep its hook URL (and its secret when "secret" is left out). */
                            id?: string;
                            /** @description github: deployment_status events (X-Hub-Signature-256). vercel: deployment.succeeded (x-vercel-signature). netlify: deploy notifications in state ready (x-webhook-signature JWT). generic: any CI (X-Ariadne-Signature: t=<unix s>,v1=<hex HMAC-SHA256 of "t.body">). */
                            type: "github" | "vercel" | "netlify" | "generic";
                            /** @description Signing secret shared with the platform (write-only; stored encrypted). */
                            secret?: string;
                            /** @description Only deployments to these environments start runs (github: environment; vercel: target, "preview" when none; netlify: context). */
                            environments?: string[];
                        }[];
                        /** @description Run the suite on a schedule (a synthetic monitor): once per tick across the whole cluster; runs record trigger type "schedule". */
                        schedule?: {
                            /** @description Cron expression: 5 fields (minute hour day month weekday) or 6 with seconds first. A suite runs at most once a minute (SUITE_SCHEDULE_MIN_SECONDS). */
                            cron: string;
                            /** @description IANA time zone the expression is read in (default UTC), e.g. Europe/Paris. */
                            timezone?: string;
                        };
                        /** @description A failed case is tried again this many times in a fresh browser context (default 0); a case that passes only then is reported flaky. */
                        retries?: number;
                        /** @description Where the result of each suite run goes, once all its runs are done (signed with the suite's notify secret). */
                        notify?: {
                            /** @description webhook: a JSON summary of the suite run (event suite_run.finished). slack: an incoming-webhook message (text and blocks) with the failing case, step and error and the report link. */
                            type: "webhook" | "slack";
                            /** @description http(s) URL, stored encrypted (a Slack webhook URL is a credential); checked against the egress policy. */
                            url: string;
                            /** @description When to send: failure (failed or error), success (passed or flaky), always. Default: webhook always, slack failure. */
                            on?: ("failure" | "success" | "always")[];
                        }[];
                        /** @description Signs every notification (X-Ariadne-Signature: t=<unix s>,v1=<hex HMAC-SHA256 of "t.body">); write-only. Left out while notify is set: one is generated and answered once (notifySecret in this answer). */
                        notifySecret?: string;
                        github?: {
                            /** @description GitHub API base URL for commit statuses (default https://api.github.com; GitHub Enterprise: https://HOST/api/v3). The token is the suite secret GITHUB_TOKEN. */
                            apiBase?: string;
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            name: string;
                            baseUrl: string;
                            plans: {
                                name: string;
                                /** @description Markdown plan, as for POST /v1/runs. */
                                plan: string;
                                /** @description Where this plan starts, resolved against the base URL (default: the base URL itself). */
                                path?: string;
                            }[];
                            variables: {
                                [key: string]: string;
                            };
                            /** @description Names of the stored secrets (values are never returned). */
                            secrets: string[];
                            roles?: {
                                /** @description Role name: letters, digits, _ and -, at most 64 characters. */
                                name: string;
                                /** @description Playwright storage state (cookies and localStorage per origin). */
                                storageState?: {
                                    cookies: {
                                        name: string;
                                        value: string;
                                        domain?: string;
                                        path?: string;
                                        url?: string;
                                        expires?: number;
                                        httpOnly?: boolean;
                                        secure?: boolean;
                                        sameSite?: "Strict" | "Lax" | "None";
                                    }[];
                                    origins: {
                                        origin: string;
                                        localStorage: {
                                            name: string;
                                            value: string;
                                        }[];
                                    }[];
                                };
                                viewport?: {
                                    width: number;
                                    height: number;
                                };
                                userAgent?: string;
                                locale?: string;
                                timezoneId?: string;
                                extraHTTPHeaders?: {
                                    [key: string]: string;
                                };
                                baseURL?: string;
                            }[];
                            planner?: string;
                            model?: string;
                            options?: unknown;
                            triggers: {
                                id: string;
                                type: string;
                                environments?: string[];
                                /** @description Paste this into the platform's webhook settings (with the same secret). */
                                url: string;
                            }[];
                            schedule?: {
                                cron: string;
                                timezone?: string;
                                /** @description When the next scheduled run starts (ISO time; null: not scheduled in Redis any more). */
                                next: string | null;
                            };
                            retries: number;
                            notify: {
                                type: string;
                                on: string[];
                                /** @description As it may be shown: a webhook's origin and path, a Slack URL's origin only. */
                                url: string;
                            }[];
                            github?: {
                                /** @description GitHub API base URL for commit statuses (default https://api.github.com; GitHub Enterprise: https://HOST/api/v3). The token is the suite secret GITHUB_TOKEN. */
                                apiBase?: string;
                            };
                            /** @description Only in the answer that generated it (create, or the update that first set notify): keep it to verify X-Ariadne-Signature. Never shown again. */
                            notifySecret?: string;
                            /** @description The most recent suite run and its status. */
                            latest: {
                                id: string;
                                createdAt: string;
                                baseUrl: string;
                                /** @description flaky: every run passed, some case only on a retry. */
                                status: "queued" | "running" | "passed" | "flaky" | "failed" | "error" | "cancelled";
                                trigger: {
                                    /** @description manual, schedule, github, vercel, netlify or generic. */
                                    type: string;
                                    /** @description A scheduled run: the tick it was started for (ISO time). */
                                    scheduledFor?: string;
                                    repo?: string;
                                    sha?: string;
                                    environment?: string;
                                    delivery?: string;
                                };
                                runs: {
                                    plan: string;
                                    runId: string;
                                    /** @description null: the run has expired (RUN_RETENTION_SECONDS). */
                                    status: string | null;
                                    url: string;
                                }[];
                            } | null;
                            createdAt: string;
                            updatedAt: string;
                        };
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/suites/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A suite, its trigger URLs and its latest run (secret values are never returned) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            name: string;
                            baseUrl: string;
                            plans: {
                                name: string;
                                /** @description Markdown plan, as for POST /v1/runs. */
                                plan: string;
                                /** @description Where this plan starts, resolved against the base URL (default: the base URL itself). */
                                path?: string;
                            }[];
                            variables: {
                                [key: string]: string;
                            };
                            /** @description Names of the stored secrets (values are never returned). */
                            secrets: string[];
                            roles?: {
                                /** @description Role name: letters, digits, _ and -, at most 64 characters. */
                                name: string;
                                /** @description Playwright storage state (cookies and localStorage per origin). */
                                storageState?: {
                                    cookies: {
                                        name: string;
                                        value: string;
                                        domain?: string;
                                        path?: string;
                                        url?: string;
                                        expires?: number;
                                        httpOnly?: boolean;
                                        secure?: boolean;
                                        sameSite?: "Strict" | "Lax" | "None";
                                    }[];
                                    origins: {
                                        origin: string;
                                        localStorage: {
                                            name: string;
                                            value: string;
                                        }[];
                                    }[];
                                };
                                viewport?: {
                                    width: number;
                                    height: number;
                                };
                                userAgent?: string;
                                locale?: string;
                                timezoneId?: string;
                                extraHTTPHeaders?: {
                                    [key: string]: string;
                                };
                                baseURL?: string;
                            }[];
                            planner?: string;
                            model?: string;
                            options?: unknown;
                            triggers: {
                                id: string;
                                type: string;
                                environments?: string[];
                                /** @description Paste this into the platform's webhook settings (with the same secret). */
                                url: string;
                            }[];
                            schedule?: {
                                cron: string;
                                timezone?: string;
                                /** @description When the next scheduled run starts (ISO time; null: not scheduled in Redis any more). */
                                next: string | null;
                            };
                            retries: number;
                            notify: {
                                type: string;
                                on: string[];
                                /** @description As it may be shown: a webhook's origin and path, a Slack URL's origin only. */
                                url: string;
                            }[];
                            github?: {
                                /** @description GitHub API base URL for commit statuses (default https://api.github.com; GitHub Enterprise: https://HOST/api/v3). The token is the suite secret GITHUB_TOKEN. */
                                apiBase?: string;
                            };
                            /** @description Only in the answer that generated it (create, or the update that first set notify): keep it to verify X-Ariadne-Signature. Never shown again. */
                            notifySecret?: string;
                            /** @description The most recent suite run and its status. */
                            latest: {
                                id: string;
                                createdAt: string;
                                baseUrl: string;
                                /** @description flaky: every run passed, some case only on a retry. */
                                status: "queued" | "running" | "passed" | "flaky" | "failed" | "error" | "cancelled";
                                trigger: {
                                    /** @description manual, schedule, github, vercel, netlify or generic. */
                                    type: string;
                                    /** @description A scheduled run: the tick it was started for (ISO time). */
                                    scheduledFor?: string;
                                    repo?: string;
                                    sha?: string;
                                    environment?: string;
                                    delivery?: string;
                                };
                                runs: {
                                    plan: string;
                                    runId: string;
                                    /** @description null: the run has expired (RUN_RETENTION_SECONDS). */
                                    status: string | null;
                                    url: string;
                                }[];
                            } | null;
                            createdAt: string;
                            updatedAt: string;
                        };
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete a suite (its trigger URLs and its schedule stop; its runs stay until they expire) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Every error: a stable code, a message, optional details. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /** Change a suite: each field given replaces the stored one */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name?: string;
                        /** @description Where the plans run unless a run or a deployment says otherwise (http or https). */
                        baseUrl?: string;
                        plans?: {
                            name: string;
                            /** @description Markdown plan, as for POST /v1/runs. */
                            plan: string;
                            /** @description Where this plan starts, resolved against the base URL (default: the base URL itself). */
                            path?: string;
                        }[];
                        variables?: {
                            [key: string]: string;
                        };
                        /** @description Write-only {{NAME}} variables, stored encrypted (SECRETS_KEY), redacted from every output whatever their names; a given map replaces the stored one. */
                        secrets?: {
                            [key: string]: string;
                        };
                        roles?: {
                            /** @description Role name: letters, digits, _ and -, at most 64 characters. */
                            name: string;
                            /** @description Playwright storage state (cookies and localStorage per origin). */
                            storageState?: {
                                cookies: {
                                    name: string;
                                    value: string;
                                    domain?: string;
                                    path?: string;
                                    url?: string;
                                    expires?: number;
                                    httpOnly?: boolean;
                                    secure?: boolean;
                                    sameSite?: "Strict" | "Lax" | "None";
                                }[];
                                origins: {
                                    origin: string;
                                    localStorage: {
                                        name: string;
                                        value: string;
                                    }[];
                                }[];
                            };
                            viewport?: {
                                width: number;
                                height: number;
                            };
                            userAgent?: string;
                            locale?: string;
                            timezoneId?: string;
                            extraHTTPHeaders?: {
                                [key: string]: string;
                            };
                            baseURL?: string;
                        }[];
                        planner?: "rules" | "anthropic" | "openai";
                        model?: string;
                        /** @description Per-run limits; each is capped by the server's RUN_* settings. */
                        options?: {
                            /** @description Record a Playwright trace per case (default true). */
                            trace?: boolean;
                            /** @description A screenshot after every step (default true). */
                            screenshots?: boolean;
                            maxStepsPerCase?: number;
                            maxTurnsPerCase?: number;
                            maxTokensPerCase?: number;
                            maxTokensPerRun?: number;
                            caseTimeoutSeconds?: number;
                            runTimeoutSeconds?: number;
                            /** @description A failed case is tried again this many times, each in a fresh browser context starting from the cookies, storage and URL the case started with (default 0). A case that passes only then is reported flaky (case status, totals.flaky, JUnit), never passed. */
                            retries?: number;
                        };
                        triggers?: {
                            /** @description On update: an existing trigger's id, to keep its hook URL (and its secret when "secret" is left out). */
                            id?: string;
                            /** @description github: deployment_status events (X-Hub-Signature-256). vercel: deployment.succeeded (x-vercel-signature). netlify: deploy notifications in state ready (x-webhook-signature JWT). generic: any CI (X-Ariadne-Signature: t=<unix s>,v1=<hex HMAC-SHA256 of "t.body">). */
                            type: "github" | "vercel" | "netlify" | "generic";
                            /** @description Signing secret shared with the platform (write-only; stored encrypted). */
                            secret?: string;
                            /** @description Only deployments to these environments start runs (github: environment; vercel: target, "preview" when none; netlify: context). */
                            environments?: string[];
                        }[];
                        /** @description A new schedule, or null to stop running on a schedule. */
                        schedule?: {
                            /** @description Cron expression: 5 fields (minute hour day month weekday) or 6 with seconds first. A suite runs at most once a minute (SUITE_SCHEDULE_MIN_SECONDS). */
                            cron: string;
                            /** @description IANA time zone the expression is read in (default UTC), e.g. Europe/Paris. */
                            timezone?: string;
                        } | null;
                        /** @description A failed case is tried again this many times in a fresh browser context (default 0); a case that passes only then is reported flaky. */
                        retries?: number;
                        /** @description Where the result of each suite run goes, once all its runs are done (signed with the suite's notify secret). */
                        notify?: {
                            /** @description webhook: a JSON summary of the suite run (event suite_run.finished). slack: an incoming-webhook message (text and blocks) with the failing case, step and error and the report link. */
                            type: "webhook" | "slack";
                            /** @description http(s) URL, stored encrypted (a Slack webhook URL is a credential); checked against the egress policy. */
                            url: string;
                            /** @description When to send: failure (failed or error), success (passed or flaky), always. Default: webhook always, slack failure. */
                            on?: ("failure" | "success" | "always")[];
                        }[];
                        /** @description Signs every notification (X-Ariadne-Signature: t=<unix s>,v1=<hex HMAC-SHA256 of "t.body">); write-only. Left out while notify is set: one is generated and answered once (notifySecret in this answer). */
                        notifySecret?: string;
                        github?: {
                            /** @description GitHub API base URL for commit statuses (default https://api.github.com; GitHub Enterprise: https://HOST/api/v3). The token is the suite secret GITHUB_TOKEN. */
                            apiBase?: string;
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            name: string;
                            baseUrl: string;
                            plans: {
                                name: string;
                                /** @description Markdown plan, as for POST /v1/runs. */
                                plan: string;
                                /** @description Where this plan starts, resolved against the base URL (default: the base URL itself). */
                                path?: string;
                            }[];
                            variables: {
                                [key: string]: string;
                            };
                            /** @description Names of the stored secrets (values are never returned). */
                            secrets: string[];
                            roles?: {
                                /** @description Role name: letters, digits, _ and -, at most 64 characters. */
                                name: string;
                                /** @description Playwright storage state (cookies and localStorage per origin). */
                                storageState?: {
                                    cookies: {
                                        name: string;
                                        value: string;
                                        domain?: string;
                                        path?: string;
                                        url?: string;
                                        expires?: number;
                                        httpOnly?: boolean;
                                        secure?: boolean;
                                        sameSite?: "Strict" | "Lax" | "None";
                                    }[];
                                    origins: {
                                        origin: string;
                                        localStorage: {
                                            name: string;
                                            value: string;
                                        }[];
                                    }[];
                                };
                                viewport?: {
                                    width: number;
                                    height: number;
                                };
                                userAgent?: string;
                                locale?: string;
                                timezoneId?: string;
                                extraHTTPHeaders?: {
                                    [key: string]: string;
                                };
                                baseURL?: string;
                            }[];
                            planner?: string;
                            model?: string;
                            options?: unknown;
                            triggers: {
                                id: string;
                                type: string;
                                environments?: string[];
                                /** @description Paste this into the platform's webhook settings (with the same secret). */
                                url: string;
                            }[];
                            schedule?: {
                                cron: string;
                                timezone?: string;
                                /** @description When the next scheduled run starts (ISO time; null: not scheduled in Redis any more). */
                                next: string | null;
                            };
                            retries: number;
                            notify: {
                                type: string;
                                on: string[];
                                /** @description As it may be shown: a webhook's origin and path, a Slack URL's origin only. */
                                url: string;
                            }[];
                            github?: {
                                /** @description GitHub API base URL for commit statuses (default https://api.github.com; GitHub Enterprise: https://HOST/api/v3). The token is the suite secret GITHUB_TOKEN. */
                                apiBase?: string;
                            };
                            /** @description Only in the answer that generated it (create, or the update that first set notify): keep it to verify X-Ariadne-Signature. Never shown again. */
                            notifySecret?: string;
                            /** @description The most recent suite run and its status. */
                            latest: {
                                id: string;
                                createdAt: string;
                                baseUrl: string;
                                /** @description flaky: every run passed, some case only on a retry. */
                                status: "queued" | "running" | "passed" | "flaky" | "failed" | "error" | "cancelled";
                                trigger: {
                                    /** @description manual, schedule, github, vercel, netlify or generic. */
                                    type: string;
                                    /** @description A scheduled run: the tick it was started for (ISO time). */
                                    scheduledFor?: string;
                                    repo?: string;
                                    sha?: string;
                                    environment?: string;
                                    delivery?: string;
                                };
                                runs: {
                                    plan: string;
                                    runId: string;
                                    /** @description null: the run has expired (RUN_RETENTION_SECONDS). */
                                    status: string | null;
                                    url: string;
                                }[];
                            } | null;
                            createdAt: string;
                            updatedAt: string;
                        };
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/v1/suites/{id}/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The suite's runs, newest first (the last 100 are kept) */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            runs: {
                                id: string;
                                createdAt: string;
                                baseUrl: string;
                                /** @description flaky: every run passed, some case only on a retry. */
                                status: "queued" | "running" | "passed" | "flaky" | "failed" | "error" | "cancelled";
                                trigger: {
                                    /** @description manual, schedule, github, vercel, netlify or generic. */
                                    type: string;
                                    /** @description A scheduled run: the tick it was started for (ISO time). */
                                    scheduledFor?: string;
                                    repo?: string;
                                    sha?: string;
                                    environment?: string;
                                    delivery?: string;
                                };
                                runs: {
                                    plan: string;
                                    runId: string;
                                    /** @description null: the run has expired (RUN_RETENTION_SECONDS). */
                                    status: string | null;
                                    url: string;
                                }[];
                            }[];
                            /** @description Status of the latest suite run (null: never run). */
                            status: string | null;
                        };
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        /** Run a suite now: one ordinary run per plan (202; each run is served by /v1/runs/:id) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Run against this deployment instead of the suite's baseUrl. */
                        baseUrl?: string;
                        sha?: string;
                        /** @description owner/name: with sha (and the suite secret GITHUB_TOKEN), the run posts GitHub commit statuses like a GitHub-triggered one. */
                        repo?: string;
                        environment?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            createdAt: string;
                            baseUrl: string;
                            /** @description flaky: every run passed, some case only on a retry. */
                            status: "queued" | "running" | "passed" | "flaky" | "failed" | "error" | "cancelled";
                            trigger: {
                                /** @description manual, schedule, github, vercel, netlify or generic. */
                                type: string;
                                /** @description A scheduled run: the tick it was started for (ISO time). */
                                scheduledFor?: string;
                                repo?: string;
                                sha?: string;
                                environment?: string;
                                delivery?: string;
                            };
                            runs: {
                                plan: string;
                                runId: string;
                                /** @description null: the run has expired (RUN_RETENTION_SECONDS). */
                                status: string | null;
                                url: string;
                            }[];
                        };
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/hooks/{hookId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Deploy webhook of a suite trigger (no API key: signed with the trigger's secret): GitHub deployment_status, Vercel deployment.succeeded, Netlify deploy ready, or generic (X-Ariadne-Signature: t=,v1=) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    hookId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            status: "accepted" | "duplicate" | "ignored" | "pong";
                            reason?: string;
                            /** @description The suite run this delivery started (or, for a duplicate, the one the first delivery started). */
                            suiteRun?: string;
                            runs?: string[];
                        };
                    };
                };
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            status: "accepted" | "duplicate" | "ignored" | "pong";
                            reason?: string;
                            /** @description The suite run this delivery started (or, for a duplicate, the one the first delivery started). */
                            suiteRun?: string;
                            runs?: string[];
                        };
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions/{id}/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * WebSocket: page commands as messages, live events, screencast (see docs/api.md for the protocol and close codes)
         * @description WebSocket upgrade (send `Connection: Upgrade`, `Upgrade: websocket`). Messages and close codes: docs/api.md.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Resume: replay events after this sequence number. */
                    since?: number;
                    /** @description API key, for clients that cannot set the Authorization header. */
                    token?: string;
                    /** @description Live-view token (from the live page or POST /v1/sessions/:id/live-link): a watch-only stream. */
                    view?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Switching Protocols: the connection is now a WebSocket. */
                101: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions/{id}/live": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Live view: screencast, event log and latest snapshot of a session, in a browser (key in the header, or a view link from POST /v1/sessions/:id/live-link) */
        get: {
            parameters: {
                query?: {
                    /** @description Live-view token from POST /v1/sessions/:id/live-link (short-lived; opens this page and a watch-only stream). */
                    view?: string;
                    role?: string;
                    page?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description text/html */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": string;
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions/{id}/live-link": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A short-lived link to the session's live view for a browser: a signed view token instead of the API key (watch only) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description How long the link opens the view (default 900 s); a stream opened in time stays open. */
                        ttlSeconds?: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            url: string;
                            /** @description ISO time the link stops opening the view. */
                            expiresAt: string;
                        };
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a stable code, a message, optional details. */
                410: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description Every error: a stable code, a message, optional details. */
        ErrorResponse: {
            error: {
                code: "invalid_request" | "invalid_selector" | "level_out_of_range" | "unauthorized" | "navigation_blocked" | "not_found" | "session_not_found" | "role_not_found" | "page_not_found" | "request_not_found" | "ref_not_found" | "ref_stale" | "ref_ambiguous" | "target_not_found" | "ambiguous_target" | "dialog_pending" | "no_dialog" | "role_exists" | "last_page" | "tab_limit" | "action_failed" | "click_intercepted" | "no_effect" | "check_failed" | "select_failed" | "evaluate_disabled" | "session_crashed" | "session_expired" | "session_closed" | "session_lost" | "page_crashed" | "payload_too_large" | "capacity_exhausted" | "queue_full" | "rate_limited" | "too_many_streams" | "quota_exceeded" | "timeout" | "operation_timeout" | "navigation_failed" | "node_unreachable" | "redis_unavailable" | "queue_timeout" | "shutting_down" | "internal_error" | "run_not_found" | "run_finished" | "no_passing_cases" | "inbox_not_found" | "inbox_disabled" | "email_not_received" | "code_not_found" | "link_not_found" | "forbidden_origin" | "mcp_session_not_found" | "egress_denied" | "model_error" | "suite_not_found" | "secrets_key_missing" | "hook_not_found" | "invalid_signature" | "signature_expired" | "invalid_payload" | "invalid_schedule" | "view_only";
                message: string;
                details?: {
                    [key: string]: unknown;
                };
            };
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    snapshot: {
        parameters: {
            query?: {
                page?: string;
                maxTokens?: number;
                /** @description Only the subtree of this ref. */
                ref?: string;
                /** @description Page through a wide node: its children (with ref) or the page's top-level nodes from this index; fold lines give the next offset. */
                offset?: number;
                depth?: number;
                format?: "yaml" | "json" | "text";
                /** @description Only what changed since this page's previous snapshot. */
                diff?: boolean;
            };
            header?: never;
            path: {
                id: string;
                /** @description Role name: letters, digits, _ and -, at most 64 characters. */
                role: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        snapshotId: string;
                        pageId: string;
                        url: string;
                        title: string;
                        format: "yaml" | "json" | "text";
                        /** @description YAML or text string, or the JSON tree. */
                        snapshot?: unknown;
                        diff?: {
                            /** @description Snapshot id the diff is against. */
                            since: string | null;
                            added: {
                                ref: string;
                                role: string;
                                /** @description The name a person reads (accessible or inferred). */
                                name?: string;
                                /** @description Its text, bounded (120 chars). */
                                text?: string;
                                parentRef?: string;
                            }[];
                            removed: {
                                ref: string;
                                role: string;
                                name?: string;
                            }[];
                            changed: {
                                ref: string;
                                role?: string;
                                name?: string;
                                /** @description What changed, in words: text "A" → "B"; checked false → true. */
                                summary: string;
                                before: unknown;
                                after: unknown;
                            }[];
                            /** @description Count of ref nodes that did not change. */
                            unchanged: number;
                        };
                        /** @description Estimated tokens of this response body (chars / 4). */
                        tokens: number;
                        totalNodes: number;
                        totalRefs: number;
                        truncated: boolean;
                        truncation?: {
                            omittedNodes: number;
                            omittedRefs: number;
                            /** @description Subtrees left out, largest first: pass one as ?ref= (and ?offset= on a fold) to see it. */
                            collapsed: {
                                ref: string;
                                role: string;
                                name?: string;
                                nodes: number;
                                refs: number;
                                /** @description On a fold: how many children of ref were left out. */
                                more?: number;
                                /** @description On a fold: pass with ref to page on to the children left out. */
                                offset?: number;
                            }[];
                            hint: string;
                        };
                    };
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    action: {
        parameters: {
            query?: {
                /** @description Tab id; default is the active tab. */
                page?: string;
            };
            header?: never;
            path: {
                id: string;
                /** @description Role name: letters, digits, _ and -, at most 64 characters. */
                role: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    action: "navigate" | "back" | "forward" | "reload" | "click" | "hover" | "type" | "fill" | "clear" | "press" | "select" | "check" | "uncheck" | "upload" | "drag" | "scroll" | "wait_for" | "handle_dialog" | "screenshot" | "evaluate";
                    /** @description Target ref from the latest snapshot. */
                    ref?: string;
                    /** @description Target by Playwright selector (css=, xpath=, text=, role=, `>>` chains, :has(); testid:x shorthands). It must match exactly one element, else ambiguous_target with the candidates and their refs. */
                    selector?: string;
                    /** @description Fallback when no ref: resolved by the description ladder. */
                    description?: string;
                    url?: string;
                    /** @description fill, select: the value to enter or choose. type takes it when "text" is missing. */
                    value?: string | string[];
                    /** @description type: the text to type (fill takes it when "value" is missing); wait_for: text that must appear. */
                    text?: string;
                    key?: string;
                    targetRef?: string;
                    /** @description drag: the drop target by selector (exactly one match). */
                    targetSelector?: string;
                    targetDescription?: string;
                    /** @description evaluate: a JavaScript function, `() => …` on the page or `(element) => …` with a target; its result comes back serialized and bounded. Off when ALLOW_EVALUATE=0. */
                    function?: string;
                    button?: "left" | "right" | "middle";
                    modifiers?: ("Alt" | "Control" | "ControlOrMeta" | "Meta" | "Shift")[];
                    double?: boolean;
                    /** @description type: keep the current value and type after it (default false: replace). */
                    append?: boolean;
                    /** @description type, fill: press Enter once the page has taken the text, and check that it reacted (else no_effect). */
                    submit?: boolean;
                    /** @description select: match options by value or label (default: either). */
                    by?: "value" | "label";
                    files?: {
                        name: string;
                        mimeType?: string;
                        /** @description File content, base64. */
                        contentBase64: string;
                    }[];
                    direction?: "up" | "down" | "left" | "right" | "top" | "bottom";
                    /** @description scroll: pixels (default 600). */
                    amount?: number;
                    /** @description wait_for: text that must disappear. */
                    textGone?: string;
                    /** @description wait_for: milliseconds to wait. */
                    time?: number;
                    /** @description handle_dialog: accept (true) or dismiss (false). */
                    accept?: boolean;
                    promptText?: string;
                    format?: "png" | "jpeg";
                    timeoutMs?: number;
                    snapshot?: "none" | "diff" | "full";
                    maxTokens?: number;
                    /** @description After the action, wait until the page has settled: the requests it started are done and the DOM has then been quiet for 25 ms. 'auto' (default) caps the wait at 2 s, a number caps it at that many ms, 'none' (or 0) returns at once. */
                    settle?: "auto" | "none" | number;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        ok: boolean;
                        action: string;
                        pageId: string;
                        url: string;
                        title: string;
                        target?: {
                            ref?: string;
                            /** @description ref, selector, or the ladder rung that matched the description. */
                            resolvedBy: string;
                            locator?: string;
                            /** @description Role of the element a description resolved to. */
                            role?: string;
                            /** @description Its name (or the text next to an unnamed control). */
                            name?: string;
                            /** @description Why this element: what matched on which rung. */
                            why?: string;
                        };
                        durationMs: number;
                        navigated: boolean;
                        dialog?: {
                            type: string;
                            message: string;
                            defaultValue?: string;
                        };
                        newPages?: string[];
                        result?: unknown;
                        settle?: {
                            /** @description quiet: settled; cap: still busy when the cap was reached; none: not asked to wait. */
                            state: "quiet" | "cap" | "none";
                            waitedMs: number;
                            /** @description Requests started by the action that were waited for. */
                            requests: number;
                            /** @description DOM mutations seen while checking that the DOM was quiet. */
                            mutations: number;
                        };
                        /** @description What the action did to the page. */
                        effect?: {
                            /** @description The page reacted: DOM, URL, focus, a field value or the network. false: nothing happened. */
                            changed: boolean;
                            navigated: boolean;
                            /** @description Requests the page started during the action and its settle wait. */
                            requests: number;
                            /** @description DOM mutations seen (absent when the document could not be watched). */
                            dom?: number;
                            /** @description The focused element changed. */
                            focus?: boolean;
                            /** @description A field value changed (input/change events). */
                            values?: boolean;
                            /** @description The new URL when it changed. */
                            url?: string;
                        };
                        snapshot?: {
                            snapshotId: string;
                            pageId: string;
                            url: string;
                            title: string;
                            format: "yaml" | "json" | "text";
                            /** @description YAML or text string, or the JSON tree. */
                            snapshot?: unknown;
                            diff?: {
                                /** @description Snapshot id the diff is against. */
                                since: string | null;
                                added: {
                                    ref: string;
                                    role: string;
                                    /** @description The name a person reads (accessible or inferred). */
                                    name?: string;
                                    /** @description Its text, bounded (120 chars). */
                                    text?: string;
                                    parentRef?: string;
                                }[];
                                removed: {
                                    ref: string;
                                    role: string;
                                    name?: string;
                                }[];
                                changed: {
                                    ref: string;
                                    role?: string;
                                    name?: string;
                                    /** @description What changed, in words: text "A" → "B"; checked false → true. */
                                    summary: string;
                                    before: unknown;
                                    after: unknown;
                                }[];
                                /** @description Count of ref nodes that did not change. */
                                unchanged: number;
                            };
                            /** @description Estimated tokens of this response body (chars / 4). */
                            tokens: number;
                            totalNodes: number;
                            totalRefs: number;
                            truncated: boolean;
                            truncation?: {
                                omittedNodes: number;
                                omittedRefs: number;
                                /** @description Subtrees left out, largest first: pass one as ?ref= (and ?offset= on a fold) to see it. */
                                collapsed: {
                                    ref: string;
                                    role: string;
                                    name?: string;
                                    nodes: number;
                                    refs: number;
                                    /** @description On a fold: how many children of ref were left out. */
                                    more?: number;
                                    /** @description On a fold: pass with ref to page on to the children left out. */
                                    offset?: number;
                                }[];
                                hint: string;
                            };
                        };
                    };
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    screenshot: {
        parameters: {
            query?: {
                page?: string;
                format?: "png" | "jpeg";
                quality?: number;
                fullPage?: boolean;
                ref?: string;
            };
            header?: never;
            path: {
                id: string;
                /** @description Role name: letters, digits, _ and -, at most 64 characters. */
                role: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description image/png or image/jpeg (base64 on the WebSocket) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": string;
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    console: {
        parameters: {
            query?: {
                page?: string;
                /** @description Comma list: log, info, warning, error, debug, pageerror. */
                level?: string;
                limit?: number;
                format?: "json" | "text";
            };
            header?: never;
            path: {
                id: string;
                /** @description Role name: letters, digits, _ and -, at most 64 characters. */
                role: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    network: {
        parameters: {
            query?: {
                page?: string;
                /** @description Comma list of resource types: document, xhr, fetch, script, ... */
                type?: string;
                failed?: boolean;
                limit?: number;
                format?: "json" | "text";
            };
            header?: never;
            path: {
                id: string;
                /** @description Role name: letters, digits, _ and -, at most 64 characters. */
                role: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    "network.request": {
        parameters: {
            query?: {
                page?: string;
                maxBodyBytes?: number;
            };
            header?: never;
            path: {
                id: string;
                /** @description Role name: letters, digits, _ and -, at most 64 characters. */
                role: string;
                requestId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    cookies: {
        parameters: {
            query?: {
                page?: string;
                url?: string;
            };
            header?: never;
            path: {
                id: string;
                /** @description Role name: letters, digits, _ and -, at most 64 characters. */
                role: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    "cookies.set": {
        parameters: {
            query?: {
                /** @description Tab id; default is the active tab. */
                page?: string;
            };
            header?: never;
            path: {
                id: string;
                /** @description Role name: letters, digits, _ and -, at most 64 characters. */
                role: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    cookies: {
                        name: string;
                        value: string;
                        domain?: string;
                        path?: string;
                        url?: string;
                        expires?: number;
                        httpOnly?: boolean;
                        secure?: boolean;
                        sameSite?: "Strict" | "Lax" | "None";
                    }[];
                    /** @description Remove all cookies first. */
                    clear?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    storage: {
        parameters: {
            query?: {
                page?: string;
                type?: "local" | "session";
            };
            header?: never;
            path: {
                id: string;
                /** @description Role name: letters, digits, _ and -, at most 64 characters. */
                role: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    performance: {
        parameters: {
            query?: {
                /** @description Tab id; default is the active tab. */
                page?: string;
            };
            header?: never;
            path: {
                id: string;
                /** @description Role name: letters, digits, _ and -, at most 64 characters. */
                role: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    "explore.container": {
        parameters: {
            query: {
                /** @description A ref from the latest snapshot (e12, or f1e3 inside an iframe). */
                ref: string;
                page?: string;
                /** @description Response budget in tokens (≈ chars / 4). */
                maxTokens?: number;
                /** @description json (default) for programs, text for models. */
                format?: "json" | "text";
                maxRefs?: number;
            };
            header?: never;
            path: {
                id: string;
                /** @description Role name: letters, digits, _ and -, at most 64 characters. */
                role: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        ref: string;
                        url: string;
                        format: string;
                        /** @description Estimated tokens of this body. */
                        tokens: number;
                        /** @description The budget cut something; omitted says what. */
                        truncated: boolean;
                        frame?: {
                            url: string;
                            name?: string;
                        };
                        /** @description format=text: the facts as compact text. */
                        text?: string;
                        target?: {
                            tagName: string;
                            text: string;
                            /** @description Stable attributes: data-testid, data-test, data-cy, id, role, aria-label, name, class. */
                            attributes: {
                                [key: string]: string;
                            };
                        };
                        ancestors?: {
                            level: number;
                            tagName: string;
                            /** @description Stable attributes: data-testid, data-test, data-cy, id, role, aria-label, name, class. */
                            attributes: {
                                [key: string]: string;
                            };
                            childElements: number;
                            /** @description The level below is inside this element's open shadow root. */
                            shadowHost?: boolean;
                            /** @description This element's own ref. */
                            ref?: string;
                            containsRefs?: {
                                count: number;
                                /** @description The first few, in document order. */
                                refs: string[];
                                /** @description false: count is a lower bound. */
                                complete: boolean;
                            };
                        }[];
                        note?: string;
                        omitted?: {
                            refs: number;
                            ancestors: number;
                        };
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    "explore.pattern": {
        parameters: {
            query: {
                /** @description A ref from the latest snapshot (e12, or f1e3 inside an iframe). */
                ref: string;
                /** @description How many ancestors up from the target (1 = its parent). Past body: 400 level_out_of_range. */
                level: number;
                page?: string;
                /** @description Response budget in tokens (≈ chars / 4). */
                maxTokens?: number;
                /** @description json (default) for programs, text for models. */
                format?: "json" | "text";
                maxSiblings?: number;
            };
            header?: never;
            path: {
                id: string;
                /** @description Role name: letters, digits, _ and -, at most 64 characters. */
                role: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        ref: string;
                        url: string;
                        format: string;
                        /** @description Estimated tokens of this body. */
                        tokens: number;
                        /** @description The budget cut something; omitted says what. */
                        truncated: boolean;
                        frame?: {
                            url: string;
                            name?: string;
                        };
                        /** @description format=text: the facts as compact text. */
                        text?: string;
                        ancestorLevel?: number;
                        containerAt?: {
                            tagName: string;
                            /** @description Stable attributes: data-testid, data-test, data-cy, id, role, aria-label, name, class. */
                            attributes: {
                                [key: string]: string;
                            };
                            childElements: number;
                        };
                        inShadowRoot?: boolean;
                        targetSiblingIndex?: number;
                        totalSiblings?: number;
                        siblings?: {
                            index: number;
                            tagName: string;
                            /** @description Stable attributes: data-testid, data-test, data-cy, id, role, aria-label, name, class. */
                            attributes: {
                                [key: string]: string;
                            };
                            childElements: number;
                            containsText: string[];
                            /** @description Text pieces left out (absent: none). */
                            textOmitted?: number;
                            outline: {
                                tag: string;
                                role?: string;
                                text?: string;
                                testId?: string;
                            }[];
                            /** @description Outline items left out (absent: none). */
                            outlineOmitted?: number;
                            containsTarget?: boolean;
                            /** @description The sibling's snapshot ref, to act on it (absent: Playwright gave it none). */
                            ref?: string;
                        }[];
                        omitted?: {
                            siblings: number;
                        };
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    "explore.anchors": {
        parameters: {
            query: {
                /** @description A ref from the latest snapshot (e12, or f1e3 inside an iframe). */
                ref: string;
                /** @description How many ancestors up from the target (1 = its parent). Past body: 400 level_out_of_range. */
                level: number;
                page?: string;
                /** @description Response budget in tokens (≈ chars / 4). */
                maxTokens?: number;
                /** @description json (default) for programs, text for models. */
                format?: "json" | "text";
                maxDescendants?: number;
                maxDepth?: number;
            };
            header?: never;
            path: {
                id: string;
                /** @description Role name: letters, digits, _ and -, at most 64 characters. */
                role: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        ref: string;
                        url: string;
                        format: string;
                        /** @description Estimated tokens of this body. */
                        tokens: number;
                        /** @description The budget cut something; omitted says what. */
                        truncated: boolean;
                        frame?: {
                            url: string;
                            name?: string;
                        };
                        /** @description format=text: the facts as compact text. */
                        text?: string;
                        ancestorAt?: {
                            level: number;
                            tagName: string;
                            /** @description Stable attributes: data-testid, data-test, data-cy, id, role, aria-label, name, class. */
                            attributes: {
                                [key: string]: string;
                            };
                            childElements: number;
                        };
                        descendants?: {
                            depth: number;
                            /** @description Position among its parent's element children. */
                            index: number;
                            tagName: string;
                            /** @description Stable attributes: data-testid, data-test, data-cy, id, role, aria-label, name, class. */
                            attributes: {
                                [key: string]: string;
                            };
                            /** @description Explicit or implicit ARIA role of the tag. */
                            role?: string;
                            fullText?: string;
                            directText?: string;
                            /** @description heading, label, testid, interactive, text. */
                            kind: string[];
                            hidden?: boolean;
                            isTarget?: boolean;
                            containsTarget?: boolean;
                            /** @description The anchor's snapshot ref, to act on it (absent: Playwright gave it none). */
                            ref?: string;
                        }[];
                        totalAnchors?: number;
                        scannedElements?: number;
                        omitted?: {
                            anchors: number;
                            beyondDepth: number;
                        };
                        scanLimitReached?: boolean;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    "inspect.dom": {
        parameters: {
            query?: {
                /** @description A ref from the latest snapshot. */
                ref?: string;
                /** @description testid:x, data-test:x, data-cy:x, CSS, or a Playwright selector (text=..., role=...). Bad syntax: 400 invalid_selector. */
                selector?: string;
                page?: string;
                /** @description json (default) or compact text with ✓/✗ symbols. */
                format?: "json" | "text";
                maxTokens?: number;
                maxChildren?: number;
                /** @description Wrapper levels to drill through. */
                maxDepth?: number;
                includeHidden?: boolean;
            };
            header?: never;
            path: {
                id: string;
                /** @description Role name: letters, digits, _ and -, at most 64 characters. */
                role: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description element, children[] (index, tag, attributes, role, box, text, visible, interactive, ref), semanticChildren, skippedWrappers, layout, omitted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        format: string;
                        tokens: number;
                        truncated: boolean;
                        ref?: string;
                        selector?: string;
                        /** @description How many elements the selector matched (the first is inspected). */
                        matches?: number;
                        frame?: {
                            url: string;
                            frameSelector: string;
                        };
                        text?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    "inspect.test-ids": {
        parameters: {
            query?: {
                page?: string;
                /** @description json (default) or compact text with ✓/✗ symbols. */
                format?: "json" | "text";
                maxTokens?: number;
                /** @description Comma list (default data-testid,data-test,data-cy). */
                attributes?: string;
                /** @description Distinct values per attribute. */
                limit?: number;
            };
            header?: never;
            path: {
                id: string;
                /** @description Role name: letters, digits, _ and -, at most 64 characters. */
                role: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description total, byAttribute{attr: [{value, count, tag, visible}]}, duplicates[], omitted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        format: string;
                        tokens: number;
                        truncated: boolean;
                        ref?: string;
                        selector?: string;
                        /** @description How many elements the selector matched (the first is inspected). */
                        matches?: number;
                        frame?: {
                            url: string;
                            frameSelector: string;
                        };
                        text?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    "inspect.query": {
        parameters: {
            query: {
                /** @description testid:x, data-test:x, data-cy:x, CSS, or a Playwright selector. */
                selector: string;
                page?: string;
                /** @description json (default) or compact text with ✓/✗ symbols. */
                format?: "json" | "text";
                maxTokens?: number;
                limit?: number;
            };
            header?: never;
            path: {
                id: string;
                /** @description Role name: letters, digits, _ and -, at most 64 characters. */
                role: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description matches, elements[] (index, tag, attributes, role, box, text, visible, hiddenReasons, inViewport, interactive, ref: the element's snapshot ref to act on), omitted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        format: string;
                        tokens: number;
                        truncated: boolean;
                        ref?: string;
                        selector?: string;
                        /** @description How many elements the selector matched (the first is inspected). */
                        matches?: number;
                        frame?: {
                            url: string;
                            frameSelector: string;
                        };
                        text?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    "inspect.visibility": {
        parameters: {
            query?: {
                /** @description A ref from the latest snapshot. */
                ref?: string;
                /** @description testid:x, data-test:x, data-cy:x, CSS, or a Playwright selector (text=..., role=...). Bad syntax: 400 invalid_selector. */
                selector?: string;
                page?: string;
                /** @description json (default) or compact text with ✓/✗ symbols. */
                format?: "json" | "text";
                maxTokens?: number;
            };
            header?: never;
            path: {
                id: string;
                /** @description Role name: letters, digits, _ and -, at most 64 characters. */
                role: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description visible, hiddenReasons, inViewport, viewportRatio, opacity, display, visibility, clipped, clippedBy, covered, coveredBy, needsScroll, box, viewport */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        format: string;
                        tokens: number;
                        truncated: boolean;
                        ref?: string;
                        selector?: string;
                        /** @description How many elements the selector matched (the first is inspected). */
                        matches?: number;
                        frame?: {
                            url: string;
                            frameSelector: string;
                        };
                        text?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    "inspect.position": {
        parameters: {
            query?: {
                /** @description A ref from the latest snapshot. */
                ref?: string;
                /** @description testid:x, data-test:x, data-cy:x, CSS, or a Playwright selector (text=..., role=...). Bad syntax: 400 invalid_selector. */
                selector?: string;
                page?: string;
                /** @description json (default) or compact text with ✓/✗ symbols. */
                format?: "json" | "text";
                maxTokens?: number;
            };
            header?: never;
            path: {
                id: string;
                /** @description Role name: letters, digits, _ and -, at most 64 characters. */
                role: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description x, y, width, height, inViewport, viewportRatio, viewport, scroll, page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        format: string;
                        tokens: number;
                        truncated: boolean;
                        ref?: string;
                        selector?: string;
                        /** @description How many elements the selector matched (the first is inspected). */
                        matches?: number;
                        frame?: {
                            url: string;
                            frameSelector: string;
                        };
                        text?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    "inspect.state": {
        parameters: {
            query?: {
                /** @description A ref from the latest snapshot. */
                ref?: string;
                /** @description testid:x, data-test:x, data-cy:x, CSS, or a Playwright selector (text=..., role=...). Bad syntax: 400 invalid_selector. */
                selector?: string;
                page?: string;
                /** @description json (default) or compact text with ✓/✗ symbols. */
                format?: "json" | "text";
                maxTokens?: number;
            };
            header?: never;
            path: {
                id: string;
                /** @description Role name: letters, digits, _ and -, at most 64 characters. */
                role: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description tag, role, enabled, disabled, ariaDisabled, editable, readOnly, focused, visible, checked, selected, required, aria*, type, value */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        format: string;
                        tokens: number;
                        truncated: boolean;
                        ref?: string;
                        selector?: string;
                        /** @description How many elements the selector matched (the first is inspected). */
                        matches?: number;
                        frame?: {
                            url: string;
                            frameSelector: string;
                        };
                        text?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    "inspect.attributes": {
        parameters: {
            query?: {
                /** @description A ref from the latest snapshot. */
                ref?: string;
                /** @description testid:x, data-test:x, data-cy:x, CSS, or a Playwright selector (text=..., role=...). Bad syntax: 400 invalid_selector. */
                selector?: string;
                page?: string;
                /** @description json (default) or compact text with ✓/✗ symbols. */
                format?: "json" | "text";
                maxTokens?: number;
                /** @description Comma list of attribute names. */
                filter?: string;
            };
            header?: never;
            path: {
                id: string;
                /** @description Role name: letters, digits, _ and -, at most 64 characters. */
                role: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description tag, all{}, data{}, aria{}, count, omitted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        format: string;
                        tokens: number;
                        truncated: boolean;
                        ref?: string;
                        selector?: string;
                        /** @description How many elements the selector matched (the first is inspected). */
                        matches?: number;
                        frame?: {
                            url: string;
                            frameSelector: string;
                        };
                        text?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    "inspect.frames": {
        parameters: {
            query?: {
                page?: string;
                /** @description json (default) or compact text with ✓/✗ symbols. */
                format?: "json" | "text";
                maxTokens?: number;
            };
            header?: never;
            path: {
                id: string;
                /** @description Role name: letters, digits, _ and -, at most 64 characters. */
                role: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description count, frames[] (index, url, name, depth, frameSelector, selector, src, title, box, visible), omitted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        format: string;
                        tokens: number;
                        truncated: boolean;
                        ref?: string;
                        selector?: string;
                        /** @description How many elements the selector matched (the first is inspected). */
                        matches?: number;
                        frame?: {
                            url: string;
                            frameSelector: string;
                        };
                        text?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    "inspect.text": {
        parameters: {
            query?: {
                /** @description A ref from the latest snapshot. */
                ref?: string;
                /** @description testid:x, data-test:x, data-cy:x, CSS, or a Playwright selector (text=..., role=...). Bad syntax: 400 invalid_selector. */
                selector?: string;
                page?: string;
                /** @description json (default) or compact text with ✓/✗ symbols. */
                format?: "json" | "text";
                maxTokens?: number;
                maxChars?: number;
            };
            header?: never;
            path: {
                id: string;
                /** @description Role name: letters, digits, _ and -, at most 64 characters. */
                role: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description tag, text, length, truncated, source */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        format: string;
                        tokens: number;
                        truncated: boolean;
                        ref?: string;
                        selector?: string;
                        /** @description How many elements the selector matched (the first is inspected). */
                        matches?: number;
                        frame?: {
                            url: string;
                            frameSelector: string;
                        };
                        text?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    dom: {
        parameters: {
            query?: {
                page?: string;
                /** @description Cap in tokens (chars / 4); default 6,000 = 24,000 chars. */
                maxTokens?: number;
            };
            header?: never;
            path: {
                id: string;
                /** @description Role name: letters, digits, _ and -, at most 64 characters. */
                role: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        url: string;
                        title: string;
                        dom: string;
                        chars: number;
                        tokens: number;
                        truncated: boolean;
                        maxChars: number;
                        stats: {
                            elements: number;
                            interactive: number;
                            shadowRoots: number;
                            customElements: number;
                            frames: number;
                            skippedZeroSize: number;
                        };
                    };
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    locators: {
        parameters: {
            query: {
                ref: string;
                page?: string;
                max?: number;
                /** @description Include Playwright's normalize() (it can take a second on big pages). */
                baseline?: boolean;
            };
            header?: never;
            path: {
                id: string;
                /** @description Role name: letters, digits, _ and -, at most 64 characters. */
                role: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        ref: string;
                        url: string;
                        target: {
                            tag: string;
                            role?: string;
                            name?: string;
                        };
                        frameSelector?: string;
                        locators: {
                            /** @description Playwright code, e.g. page.getByTestId('product-card').filter({ hasText: 'iPhone 15 Pro' }).getByRole('button', { name: 'Add to Cart' }) */
                            code: string;
                            strategy: "role" | "container" | "own" | "structural" | "nth";
                            /** @description Higher survives more change; every weakness lowers it. */
                            score: number;
                            /** @description Something in it breaks easily: position (nth, :nth-of-type), DOM structure, a generated id, text that changes with data, or a substring anchor a near-duplicate also matches. */
                            fragile: boolean;
                            weaknesses: {
                                kind: "positional" | "generated-id" | "data-text" | "css-structure" | "css-class" | "near-duplicate" | "whole-text" | "long-chain";
                                detail: string;
                            }[];
                            /** @description The facts the candidate was built from. */
                            why: string[];
                            /** @description Checked against a copy of its container whose anchor text is extended ("Desk Lamp" -> "Desk Lamp Plus"): distinct = the copy would not match. */
                            nearDuplicate: "distinct" | "also-matches" | "no-text-anchor";
                            verified: {
                                matches: number;
                                sameElement: boolean;
                            };
                        }[];
                        baseline: {
                            source: string;
                            code?: string;
                            matches?: number;
                            sameElement?: boolean;
                            error?: string;
                            /** @description Time normalize() itself took. */
                            ms?: number;
                        };
                        /** @description Candidates that failed verification (first 10). */
                        rejected: {
                            code: string;
                            reason: string;
                        }[];
                        considered: number;
                        verification: string;
                        /** @description Our synthesis alone, the baseline excluded. */
                        durationMs: number;
                    };
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Every error: a stable code, a message, optional details. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
}
