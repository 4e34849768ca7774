import Foundation
import Hummingbird
import Metrics
import Prometheus

/// The process-wide Prometheus registry. swift-metrics can be bootstrapped once per process, so the
/// first server built in a process installs it and every later one (tests build many) shares it.
enum PrometheusMetrics {
    static let registry: PrometheusCollectorRegistry = {
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        return registry
    }()
}
