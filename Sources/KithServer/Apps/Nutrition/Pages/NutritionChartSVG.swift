import Foundation
import KithCore

/// The history chart: one bar per day's calories and the goal as a dashed line, drawn here as
/// inline SVG (no script, no library, nothing from another site; colours come from app.css). It is
/// an image with a title and a description; the page also gives the same numbers as a table.
enum NutritionChartSVG {
    static let width = 480.0
    static let height = 220.0
    static let left = 44.0
    static let right = 6.0
    static let top = 10.0
    static let bottom = 26.0

    static func render(_ days: [DayTotal], today: LocalDate) -> String {
        guard let first = days.first, let last = days.last else { return "" }
        let plotWidth = width - left - right
        let plotHeight = height - top - bottom
        let highest = days.map { max($0.calories, Double($0.goal ?? 0)) }.max() ?? 0
        let step = tickStep(for: max(highest, 500) / 4)
        let yMax = step * max((highest / step).rounded(.up), 1)
        func y(_ value: Double) -> Double { top + plotHeight * (1 - min(value, yMax) / yMax) }
        let slot = plotWidth / Double(days.count)
        let barWidth = max(slot * 0.7, 1)

        var svg =
            #"<svg class="chart" id="history-chart" viewBox="0 0 \#(number(width)) \#(number(height))" role="img" aria-labelledby="chart-title chart-desc" focusable="false">"#
        svg +=
            #"<title id="chart-title">Calories, \#(NutritionFormat.short(first.date)) to \#(NutritionFormat.short(last.date))</title>"#
        svg += #"<desc id="chart-desc">\#(OutreachRowsHTML.escaped(description(days)))</desc>"#

        // Grid and the calorie axis.
        var tick = 0.0
        while tick <= yMax + 0.5 {
            let lineY = number(y(tick))
            svg +=
                #"<line class="chart-grid" x1="\#(number(left))" x2="\#(number(width - right))" y1="\#(lineY)" y2="\#(lineY)"/>"#
            svg +=
                #"<text class="chart-axis" x="\#(number(left - 6))" y="\#(lineY)" dy="0.32em" text-anchor="end">\#(NutritionFormat.kcal(tick))</text>"#
            tick += step
        }

        // Bars, with a tooltip each.
        for (index, day) in days.enumerated() {
            let x = left + slot * Double(index) + (slot - barWidth) / 2
            var classes = "chart-bar"
            if let goal = day.goal, day.calories > Double(goal) { classes += " is-over" }
            if day.date == today { classes += " is-today" }
            var tip = "\(NutritionFormat.medium(day.date)): \(NutritionFormat.kcal(day.calories)) kcal"
            if let goal = day.goal { tip += " (goal \(NutritionFormat.kcal(Double(goal))))" }
            let top = y(day.calories)
            let barHeight = max(y(0) - top, day.calories > 0 ? 1 : 0)
            svg +=
                #"<rect class="\#(classes)" x="\#(number(x))" y="\#(number(y(0) - barHeight))" width="\#(number(barWidth))" height="\#(number(barHeight))" data-date="\#(day.date)"><title>\#(tip)</title></rect>"#
        }

        // The goal, day by day (it can change), as one dashed path.
        var path = ""
        var previous: Int64?
        for (index, day) in days.enumerated() {
            guard let goal = day.goal else { previous = nil; continue }
            let start = left + slot * Double(index)
            let goalY = number(y(Double(goal)))
            path += (previous == nil ? "M" : "L") + "\(number(start)) \(goalY)"
            path += "L\(number(start + slot)) \(goalY)"
            previous = goal
        }
        if !path.isEmpty { svg += #"<path class="chart-goal" d="\#(path)"/>"# }

        // Dates: today and every seventh day before it.
        for (index, day) in days.enumerated() where (days.count - 1 - index) % 7 == 0 {
            // The last label ends at the plot's edge rather than running past it.
            let isLast = index == days.count - 1
            let x = isLast ? width - right : left + slot * (Double(index) + 0.5)
            svg +=
                #"<text class="chart-axis" x="\#(number(x))" y="\#(number(height - 8))" text-anchor="\#(isLast ? "end" : "middle")">\#(NutritionFormat.short(day.date))</text>"#
        }
        svg +=
            #"<line class="chart-baseline" x1="\#(number(left))" x2="\#(number(width - right))" y1="\#(number(y(0)))" y2="\#(number(y(0)))"/>"#
        return svg + "</svg>"
    }

    /// What the chart shows, in words (its `<desc>`, and the line under it).
    static func description(_ days: [DayTotal]) -> String {
        guard let first = days.first, let last = days.last else { return "" }
        let logged = days.filter { $0.calories > 0 }
        var text =
            "Calories eaten each day from \(NutritionFormat.short(first.date)) to \(NutritionFormat.short(last.date))"
        text += days.contains { $0.goal != nil } ? ", against the daily goal. " : ". "
        guard !logged.isEmpty else { return text + "Nothing logged in these days." }
        let average = logged.reduce(0) { $0 + $1.calories } / Double(logged.count)
        text += "\(logged.count) of \(days.count) days logged, \(NutritionFormat.kcal(average)) kcal a day on average"
        let over = days.filter { day in day.goal.map { day.calories > Double($0) } ?? false }.count
        if days.contains(where: { $0.goal != nil }) {
            text += over == 0 ? "; no day over the goal." : "; \(over) \(over == 1 ? "day" : "days") over the goal."
        } else {
            text += "."
        }
        return text
    }

    /// A round step for the calorie axis, at least `raw`.
    static func tickStep(for raw: Double) -> Double {
        let steps: [Double] = [100, 200, 250, 500, 1_000, 2_000, 2_500, 5_000, 10_000, 20_000, 25_000, 50_000, 100_000]
        return steps.first { $0 >= raw } ?? (raw / 100_000).rounded(.up) * 100_000
    }

    /// A coordinate with at most one decimal.
    static func number(_ value: Double) -> String {
        let tenths = (value * 10).rounded() / 10
        return tenths == tenths.rounded() ? String(Int(tenths)) : String(tenths)
    }
}
