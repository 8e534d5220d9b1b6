// swift-tools-version:5.7
import PackageDescription

let package = Package(
    name: "Shop",
    targets: [
        .target(name: "Shop"),
        .executableTarget(name: "Report", dependencies: ["Shop"]),
    ]
)
