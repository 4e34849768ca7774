import Hummingbird

/// The Nutrition app on the server (docs/nutrition.md): the /food pages, food search, and the daily
/// purge of days past the retention window.
struct NutritionApp: ServerApp {
    let service: NutritionService
    private let parts: AppParts

    init(_ parts: AppParts) {
        self.parts = parts
        service = NutritionService(
            repository: parts.sync, clock: parts.clock, retention: parts.config.nutritionRetention)
    }

    func addRoutes(to router: Router<AppRequestContext>) {
        NutritionPages(
            nutrition: service, operations: parts.operations, renderer: parts.renderer, session: parts.session
        ).addRoutes(to: router)
        let config = parts.config
        FoodSearchController(
            accounts: parts.accounts,
            service: FoodSearchService(
                settings: config.foodSearch, client: .shared,
                userAgent: FoodSearchSettings.userAgent(publicURL: config.publicURL, mailFrom: config.mailFrom),
                clock: config.clock, logger: parts.logger),
            limiter: MonicaRateLimiter(limit: config.foodSearch.rateLimitPerMinute, clock: config.clock)
        ).addRoutes(to: router)
    }

    var jobHandlers: [any JobHandler] {
        [
            NutritionRetentionJob(
                retention: parts.config.nutritionRetention, repository: parts.sync, writer: parts.writer,
                stamps: parts.stamps, queue: parts.jobs, clock: parts.clock, ids: parts.ids, logger: parts.logger)
        ]
    }
}
