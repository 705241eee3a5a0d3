import type { UsageHistoryResponse } from '@vigil/proto';
import { Card, CardContent, CardDescription, CardHeader, CardTitle, QueryView } from '@vigil/ui';
import {
  Area,
  AreaChart,
  Bar,
  BarChart,
  CartesianGrid,
  Line,
  LineChart,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { useGetUsageHistoryQuery } from './screening.api.js';

const dayFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const shortDay = (date: string) => dayFormat.format(new Date(`${date}T00:00:00Z`));

/** The three series of the last 30 days, shaped for the charts. */
export function chartSeries(history: UsageHistoryResponse) {
  let cumulative = 0;
  const periodStart = history.periodStart.slice(0, 10);
  return history.days.map((day) => {
    if (day.date >= periodStart) cumulative += day.screenings;
    return {
      day: shortDay(day.date),
      screenings: day.screenings,
      matchRate: day.screenings === 0 ? 0 : Math.round((day.matches / day.screenings) * 1000) / 10,
      used: day.date >= periodStart ? cumulative : null,
    };
  });
}

/** Screenings per day, match rate and usage against quota over the last 30 days (recharts). */
export function UsageCharts() {
  const history = useGetUsageHistoryQuery();
  return (
    <QueryView query={history} errorTitle="Failed to load usage history" loadingLabel="Loading charts...">
      {(data) => {
        const series = chartSeries(data);
        const total = data.days.reduce((sum, d) => sum + d.screenings, 0);
        return (
          <div className="grid grid-cols-1 gap-4 lg:grid-cols-3" data-testid="usage-charts">
            <ChartCard title="Screenings per day" description={`${total.toLocaleString('en-GB')} in the last 30 days`}>
              <BarChart data={series} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
                <CartesianGrid strokeDasharray="3 3" vertical={false} />
                <XAxis dataKey="day" tick={{ fontSize: 11 }} interval="preserveStartEnd" minTickGap={24} />
                <YAxis allowDecimals={false} tick={{ fontSize: 11 }} />
                <Tooltip />
                <Bar dataKey="screenings" name="Screenings" fill="var(--color-primary)" radius={[3, 3, 0, 0]} />
              </BarChart>
            </ChartCard>
            <ChartCard title="Match rate" description="Share of screenings at or above the review threshold">
              <LineChart data={series} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
                <CartesianGrid strokeDasharray="3 3" vertical={false} />
                <XAxis dataKey="day" tick={{ fontSize: 11 }} interval="preserveStartEnd" minTickGap={24} />
                <YAxis unit="%" domain={[0, 100]} tick={{ fontSize: 11 }} />
                <Tooltip formatter={(value) => `${String(value)}%`} />
                <Line
                  dataKey="matchRate"
                  name="Match rate"
                  stroke="var(--color-warning-foreground)"
                  dot={false}
                  strokeWidth={2}
                />
              </LineChart>
            </ChartCard>
            <ChartCard
              title="Usage against quota"
              description={`${data.usage.toLocaleString('en-GB')} of ${data.quota.toLocaleString('en-GB')} this period`}
            >
              <AreaChart data={series} margin={{ top: 8, right: 8, bottom: 0, left: -8 }}>
                <CartesianGrid strokeDasharray="3 3" vertical={false} />
                <XAxis dataKey="day" tick={{ fontSize: 11 }} interval="preserveStartEnd" minTickGap={24} />
                <YAxis tick={{ fontSize: 11 }} domain={[0, (max: number) => Math.max(max, data.quota)]} />
                <Tooltip />
                <ReferenceLine
                  y={data.quota}
                  stroke="var(--color-destructive)"
                  strokeDasharray="4 4"
                  label={{ value: 'Quota', fontSize: 11, position: 'insideTopRight' }}
                />
                <Area
                  dataKey="used"
                  name="Used this period"
                  stroke="var(--color-primary)"
                  fill="var(--color-primary-soft)"
                  connectNulls={false}
                />
              </AreaChart>
            </ChartCard>
          </div>
        );
      }}
    </QueryView>
  );
}

function ChartCard({
  title,
  description,
  children,
}: {
  title: string;
  description: string;
  children: React.ReactElement;
}) {
  return (
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle className="text-base">{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>
        <div className="h-48 w-full min-w-0 overflow-hidden" role="img" aria-label={`${title}: ${description}`}>
          <ResponsiveContainer width="100%" height="100%">
            {children}
          </ResponsiveContainer>
        </div>
      </CardContent>
    </Card>
  );
}
