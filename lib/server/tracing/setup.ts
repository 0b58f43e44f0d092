import 'server-only';
import { ProxyTracerProvider, trace, type Tracer, type TracerOptions } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider, type SpanProcessor } from '@opentelemetry/sdk-trace-node';

/** The name our spans are made under, and the service's unless OTEL_SERVICE_NAME says otherwise. */
export const SERVICE_NAME = 'tray-scan-dashboard';

/**
 * A provider that leaves Next.js's own spans out: the custom server makes one span per request, and Next's
 * (a second server span and its internal steps) would only nest noise inside it. Next's tracer gets a no-op
 * one, whose spans carry their parent's context on, so the app's spans under them still hang from the request.
 */
class AppTracerProvider extends NodeTracerProvider {
  readonly #silent = new ProxyTracerProvider();

  override getTracer(name: string, version?: string, options?: TracerOptions): Tracer {
    return name === 'next.js' ? this.#silent.getTracer(name) : super.getTracer(name, version, options);
  }
}

const holder = globalThis as unknown as { __tracerProvider?: NodeTracerProvider };

/** The standard variables .env.example shows (OpenTelemetry's SDK and exporter read all the others too). */
export const OTEL_EXAMPLE_VARIABLES = ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_SERVICE_NAME'];

/** True when the standard variables ask for traces: an OTLP endpoint, and the SDK not disabled. */
export function tracingWanted(env: Record<string, string | undefined> = process.env): boolean {
  if (env.OTEL_SDK_DISABLED?.toLowerCase() === 'true' || env.OTEL_TRACES_EXPORTER?.toLowerCase() === 'none')
    return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

/**
 * Registers the process's tracer provider with `processor` (and the AsyncLocalStorage context manager and
 * W3C trace context propagation). Tests pass a SimpleSpanProcessor over an InMemorySpanExporter.
 */
export function registerTracing(processor: SpanProcessor): NodeTracerProvider {
  const resource = defaultResource()
    .merge(resourceFromAttributes({ 'service.name': SERVICE_NAME }))
    .merge(detectResources({ detectors: [envDetector] }));
  const provider = new AppTracerProvider({ resource, spanProcessors: [processor] });
  provider.register();
  holder.__tracerProvider = provider;
  return provider;
}

/**
 * Traces over OTLP/HTTP (JSON) when OTEL_EXPORTER_OTLP_ENDPOINT (or _TRACES_ENDPOINT) is set; the exporter
 * and the sampler read the other standard variables (headers, timeout, OTEL_TRACES_SAMPLER, ...). Off
 * otherwise: every span call is then the API's no-op. Once per process.
 */
export function startTracing(): boolean {
  if (holder.__tracerProvider || !tracingWanted()) return Boolean(holder.__tracerProvider);
  registerTracing(new BatchSpanProcessor(new OTLPTraceExporter()));
  return true;
}

/** Sends the spans still held, then stops (at shutdown). */
export async function stopTracing(): Promise<void> {
  const provider = holder.__tracerProvider;
  holder.__tracerProvider = undefined;
  if (!provider) return;
  await provider.shutdown();
  trace.disable();
}

/** Whether spans are being recorded (a provider is registered). */
export function tracingActive(): boolean {
  return holder.__tracerProvider !== undefined;
}

/** The tracer of our own spans (a no-op until a provider is registered). */
export const tracer = (): Tracer => trace.getTracer(SERVICE_NAME);
