/**
 * The vocabulary every other part shares: the operator's settings (one tree bound by Spring Boot's
 * binder from the jar's defaults, {@code config/application.yml}, the environment and the command
 * line, checked as it is bound), board sizes and storage limits, and the published counts.
 */
package dev.nqueens.settings;
