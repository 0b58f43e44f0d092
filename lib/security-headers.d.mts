export declare const SECURITY_HEADERS: { key: string; value: string }[];
export declare const API_CSP: string;
export declare const HSTS: string;
export declare const FORWARDED_HTTPS: string;
