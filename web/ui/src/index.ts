export { Alert, AlertDescription, AlertTitle } from './alert.js';
export { errorMessage, isApiError, toApiError } from './api-error.js';
export { AppShell, AppSidebar, ConnectionTopBar, SidebarBrand } from './app-shell.js';
export type { ApiError } from './api-error.js';
export { clearStoredTraces, readRefreshToken, STORAGE_PREFIX, writeRefreshToken } from './auth-storage.js';
export type { StoredRefresh } from './auth-storage.js';
export type { AlertProps } from './alert.js';
export { Badge, badgeVariants } from './badge.js';
export type { BadgeProps } from './badge.js';
export { VigilLogo } from './brand.js';
export type { VigilLogoProps } from './brand.js';
export { Button, buttonVariants } from './button.js';
export type { ButtonProps } from './button.js';
export { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from './card.js';
export { Checkbox } from './checkbox.js';
export { cn } from './cn.js';
export { formatLatency, isHealthResponse, serviceRows, summarizeHealth } from './health-summary.js';
export type { HealthSummary, HealthTone, HealthView, ServiceRow } from './health-summary.js';
export { Input } from './input.js';
export { OfflineBanner, OnlineBadge, useOnline } from './online-status.js';
export { Label } from './label.js';
export { describeHealthError } from './request-error.js';
export { StatusWidget } from './status-widget.js';
export type { StatusWidgetProps } from './status-widget.js';
export { Accordion, AccordionContent, AccordionItem, AccordionTrigger } from './accordion.js';
export { Dialog, DialogClose, DialogContent, DialogDescription, DialogTitle, DialogTrigger } from './dialog.js';
export { Spinner } from './spinner.js';
export { Tabs, TabsContent, TabsList, TabsTrigger } from './tabs.js';
export { createToastStore, toast, toasts } from './toast-store.js';
export type { ToastInput, ToastItem, ToastStore } from './toast-store.js';
export { TOAST_DURATION_MS, Toaster } from './toaster.js';
export { Progress } from './progress.js';
export { LoadError, Loading, QueryView } from './query-states.js';
export type { QueryLike } from './query-states.js';
export {
  SIDEBAR_COOKIE_MAX_AGE_S,
  SIDEBAR_COOKIE_NAME,
  SIDEBAR_MOBILE_BREAKPOINT_PX,
  SIDEBAR_WIDTH,
  SIDEBAR_WIDTH_COLLAPSED,
  SIDEBAR_WIDTH_MOBILE,
  readSidebarCookie,
} from './sidebar-state.js';
export {
  Sidebar,
  SidebarContent,
  SidebarFooter,
  SidebarHeader,
  SidebarLabel,
  SidebarMenu,
  SidebarMenuButton,
  SidebarProvider,
  SidebarTrigger,
  useSidebar,
} from './sidebar.js';
export { StatCard, StatGrid } from './stat-card.js';
export type { CountStat } from './stat-card.js';
export { normalizeToken, highlightSegments } from './highlight.js';
export type { HighlightSegment } from './highlight.js';
export { HighlightedText } from './highlighted-text.js';
export { Kbd } from './kbd.js';
export { isInteractiveTarget, isTypingTarget, keyLabel, shortcutFor } from './keyboard-shortcuts.js';
export type { KeyboardShortcut } from './keyboard-shortcuts.js';
export { ShortcutsHelpDialog, useKeyboardShortcuts } from './shortcuts-help.js';
